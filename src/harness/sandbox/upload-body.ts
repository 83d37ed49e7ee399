import type { IncomingMessage } from "node:http";
import { readStudentFiles, type StudentFileCaps } from "../../server/student-files.js";
import type { RunFileOutput } from "./executor.js";

/** The files of a multipart upload to the sandbox, read and checked as the app's upload route does. */
export async function readUpload(req: IncomingMessage, caps: StudentFileCaps): Promise<RunFileOutput[]> {
  const checked = await readStudentFiles(
    req,
    { contentType: req.headers["content-type"], contentLength: req.headers["content-length"] },
    caps,
  );
  return Promise.all(
    checked.map(async ({ file, name, mediaType }) => ({
      name,
      mediaType,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
}
