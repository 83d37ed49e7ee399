import type { IncomingMessage } from "node:http";
import { HttpRefusal, mediaTypeOf } from "../../server/http.js";
import {
  checkStudentFiles,
  uploadBodyLimit,
  uploadTooLarge,
  type StudentFileCaps,
} from "../../server/student-files.js";
import type { RunFileOutput } from "./executor.js";

/**
 * The files of a multipart upload to the sandbox, each checked as the
 * app's upload route checks them (`checkStudentFiles`); nothing past the
 * caps is read.
 */
export async function readUpload(req: IncomingMessage, caps: StudentFileCaps): Promise<RunFileOutput[]> {
  const type = req.headers["content-type"] ?? "";
  if (mediaTypeOf(type) !== "multipart/form-data") {
    throw new HttpRefusal(415, "unsupported_media_type", "Send the files as multipart/form-data.");
  }
  const maxBody = uploadBodyLimit(caps);
  if (Number(req.headers["content-length"] ?? 0) > maxBody) throw uploadTooLarge(caps);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) throw uploadTooLarge(caps);
    chunks.push(chunk as Buffer);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpRefusal(400, "invalid_upload", "The upload is not readable multipart/form-data.");
  }
  return Promise.all(
    checkStudentFiles(form, caps).map(async ({ file, name, mediaType }) => ({
      name,
      mediaType,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
}
