import { bytesInWords } from "../contract/bytes-in-words.js";
import { safeFileName, STUDENT_FILE_EXTENSIONS, studentFileType, uniqueFileName } from "../contract/file-name.js";
import { HttpRefusal, mediaTypeOf } from "./http.js";

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
export function checkStudentFiles(form: FormData, caps: StudentFileCaps): CheckedStudentFile[] {
  const given = [...form.values()].filter((value): value is File => typeof value !== "string");
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
    return { file, givenName: file.name, name, mediaType };
  });
}

/**
 * The checked files of a multipart upload, from its body however the
 * server holds it (a Node request, a Web request's stream): nothing past
 * the caps is read, whatever the length header said.
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
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    // Leaving the loop stops the body's stream.
    if (size > limit) throw uploadTooLarge(caps);
    chunks.push(chunk);
  }
  let form: FormData;
  try {
    form = await new Response(new Blob(chunks as BlobPart[]), {
      headers: { "content-type": headers.contentType! },
    }).formData();
  } catch {
    throw new HttpRefusal(400, "invalid_upload", "The upload is not readable multipart/form-data.");
  }
  return checkStudentFiles(form, caps);
}
