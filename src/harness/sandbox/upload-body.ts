import type { IncomingMessage } from "node:http";
import { bytesInWords } from "../../contract/bytes-in-words.js";
import { safeFileName, STUDENT_FILE_EXTENSIONS, studentFileType, uniqueFileName } from "../../contract/file-name.js";
import { HttpRefusal, mediaTypeOf } from "../../server/http.js";
import type { RunFileOutput } from "./executor.js";

/**
 * The files of a multipart upload, each checked: at most `maxFiles`, none
 * empty, none over `maxFileBytes`, each of a kind a student may give, each
 * under a safe name of its own. Refuses the whole upload with the reason in
 * words (400, 413, 415) rather than keep part of it.
 */
export async function readUpload(
  req: IncomingMessage,
  { maxFileBytes, maxFiles }: { maxFileBytes: number; maxFiles: number },
): Promise<RunFileOutput[]> {
  const type = req.headers["content-type"] ?? "";
  if (mediaTypeOf(type) !== "multipart/form-data") {
    throw new HttpRefusal(415, "unsupported_media_type", "Send the files as multipart/form-data.");
  }
  // Room for every file at its largest and the framing: past it, nothing more is read.
  const maxBody = maxFiles * maxFileBytes + 64 * 1024;
  const tooLarge = () =>
    new HttpRefusal(
      413,
      "upload_too_large",
      `An upload may carry at most ${maxFiles} files of at most ${bytesInWords(maxFileBytes)} each.`,
    );
  if (Number(req.headers["content-length"] ?? 0) > maxBody) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpRefusal(400, "invalid_upload", "The upload is not readable multipart/form-data.");
  }
  const given = [...form.values()].filter((value): value is File => typeof value !== "string");
  if (!given.length) throw new HttpRefusal(400, "no_files", "The upload has no files.");
  if (given.length > maxFiles) throw tooLarge();
  const taken = new Set<string>();
  const files: RunFileOutput[] = [];
  for (const file of given) {
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
    if (file.size > maxFileBytes) {
      throw new HttpRefusal(
        413,
        "file_too_large",
        `"${name}" is ${bytesInWords(file.size)}; a file may be at most ${bytesInWords(maxFileBytes)}.`,
      );
    }
    taken.add(name);
    files.push({ name, mediaType, bytes: new Uint8Array(await file.arrayBuffer()) });
  }
  return files;
}
