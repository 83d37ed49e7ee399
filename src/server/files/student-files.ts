import { Busboy } from "@fastify/busboy";
import { bytesInWords } from "../../contract/bytes-in-words.js";
import { safeFileName, STUDENT_FILE_EXTENSIONS, studentFileType, uniqueFileName } from "../../contract/file-name.js";
import { HttpRefusal, mediaTypeOf } from "../http/http.js";

/** The caps on a student's upload. */
export interface StudentFileCaps {
  /** Largest file, in bytes. */
  maxFileBytes: number;
  /** Files in one upload (one message). */
  maxFiles: number;
  /** Bytes of one upload's files together. */
  maxTotalBytes: number;
}

/** A student's file as it will be kept: under a safe name of its own, with the type its extension says. */
export interface CheckedStudentFile {
  file: File;
  /** The name as the student gave it, for showing. */
  givenName: string;
  /** The name a program opens it by. */
  name: string;
  mediaType: string;
}

const MAX_GIVEN_NAME_CHARS = 1024;
/** Text fields an upload may carry beside its files (they are not read). */
const MAX_FIELDS = 8;
const PARSE_SLICE_BYTES = 64 * 1024;

/** The whole upload is refused past this: every file at its largest, and the framing. */
export const uploadBodyLimit = (caps: StudentFileCaps) =>
  Math.min(caps.maxFiles * caps.maxFileBytes, caps.maxTotalBytes) + 64 * 1024;

const uploadTooLarge = (caps: StudentFileCaps) =>
  new HttpRefusal(
    413,
    "upload_too_large",
    `An upload may carry at most ${caps.maxFiles} files of at most ${bytesInWords(caps.maxFileBytes)} each, ${bytesInWords(caps.maxTotalBytes)} in all.`,
  );

/**
 * The files of an upload, each checked: at most `maxFiles`, none empty,
 * none over `maxFileBytes`, each of a kind a student may give, each under
 * a safe name (`safeFileName`) unique in the upload. Refuses the whole
 * upload with the reason in words (400, 413, 415) rather than keep part of it.
 */
export function checkStudentFiles(given: GivenFile[], caps: StudentFileCaps): CheckedStudentFile[] {
  if (!given.length) throw new HttpRefusal(400, "no_files", "The upload has no files.");
  if (given.length > caps.maxFiles) throw uploadTooLarge(caps);
  if (given.reduce((sum, file) => sum + file.size, 0) > caps.maxTotalBytes) throw uploadTooLarge(caps);
  const taken = new Set<string>();
  return given.map((file) => {
    // A name no file system gives: refused before any work on it.
    if (file.name.length > MAX_GIVEN_NAME_CHARS) {
      throw new HttpRefusal(
        400,
        "file_name_too_long",
        `A file's name may be at most ${MAX_GIVEN_NAME_CHARS} characters; rename the file and attach it again.`,
      );
    }
    const name = uniqueFileName(safeFileName(file.name), taken);
    const mediaType = studentFileType(name);
    if (!mediaType) {
      throw new HttpRefusal(
        415,
        "unsupported_file_type",
        `The sandbox takes ${STUDENT_FILE_EXTENSIONS.join(", ")} files; "${name}" is none of them.`,
      );
    }
    if (file.size === 0) throw new HttpRefusal(400, "empty_file", `"${name}" is empty.`);
    if (file.size > caps.maxFileBytes) {
      throw new HttpRefusal(
        413,
        "file_too_large",
        `"${name}" is ${bytesInWords(file.size)}; a file may be at most ${bytesInWords(caps.maxFileBytes)}.`,
      );
    }
    taken.add(name);
    return { file: new File(file.bytes as BlobPart[], file.name), givenName: file.name, name, mediaType };
  });
}

/** A file as the upload carried it: its name, its size, and its bytes while it is within the cap. */
export interface GivenFile {
  name: string;
  size: number;
  /** Empty past `maxFileBytes`: such a file is counted, never held. */
  bytes: Uint8Array[];
}

/**
 * The checked files of a multipart upload, from its body however the
 * server holds it (a Node request, a Web request's stream), parsed as it
 * arrives (`@fastify/busboy`): nothing past the caps is read or held,
 * whatever the length header said, and an upload of more parts than its
 * files could make is refused at the first one too many.
 */
export async function readStudentFiles(
  body: AsyncIterable<Uint8Array> | null,
  headers: { contentType: string | null | undefined; contentLength: string | null | undefined },
  caps: StudentFileCaps,
): Promise<CheckedStudentFile[]> {
  if (mediaTypeOf(headers.contentType) !== "multipart/form-data") {
    throw new HttpRefusal(415, "unsupported_media_type", "Send the files as multipart/form-data.");
  }
  const limit = uploadBodyLimit(caps);
  if (Number(headers.contentLength ?? 0) > limit) throw uploadTooLarge(caps);
  const unreadable = () => new HttpRefusal(400, "invalid_upload", "The upload is not readable multipart/form-data.");
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": headers.contentType! },
      // The name as the student gave it, path and all, in UTF-8 as browsers send it; safeFileName makes it safe.
      preservePath: true,
      defCharset: "utf8",
      limits: {
        files: caps.maxFiles,
        // A few text fields beside the files, as forms send; no more.
        parts: caps.maxFiles + MAX_FIELDS,
        fields: MAX_FIELDS,
        fieldSize: 1024,
        headerPairs: 16,
      },
    });
  } catch {
    throw unreadable();
  }
  const given: GivenFile[] = [];
  let refusal: HttpRefusal | null = null;
  const refuse = (why: HttpRefusal) => {
    refusal ??= why;
  };
  parser.on("file", (_field, stream, filename) => {
    const file: GivenFile = { name: filename ?? "", size: 0, bytes: [] };
    given.push(file);
    stream.on("data", (chunk: Buffer) => {
      file.size += chunk.length;
      if (file.size <= caps.maxFileBytes) file.bytes.push(chunk);
      else file.bytes = [];
    });
  });
  parser.on("filesLimit", () => refuse(uploadTooLarge(caps)));
  parser.on("partsLimit", () => refuse(uploadTooLarge(caps)));
  parser.on("fieldsLimit", () => refuse(unreadable()));
  const ended = new Promise<void>((resolve, reject) => {
    parser.on("finish", resolve);
    parser.on("error", reject);
  });
  // A parser's error is the upload's: it is told once, at its end.
  ended.catch(() => undefined);
  let size = 0;
  try {
    for await (const chunk of body ?? []) {
      size += chunk.length;
      // Leaving the loop stops the body's stream.
      if (size > limit) throw uploadTooLarge(caps);
      // In slices, so that however large a chunk comes, parsing stops soon after a refusal.
      for (let at = 0; at < chunk.length; at += PARSE_SLICE_BYTES) {
        if (refusal) throw refusal;
        const slice = chunk.subarray(at, at + PARSE_SLICE_BYTES);
        if (!parser.write(slice)) await new Promise((resolve) => parser.once("drain", resolve));
      }
    }
    parser.end();
    await ended;
  } catch (error) {
    parser.destroy();
    if (error instanceof HttpRefusal) throw error;
    throw unreadable();
  }
  if (refusal) throw refusal;
  return checkStudentFiles(given, caps);
}
