import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { readStudentFiles, type StudentFileCaps } from "../server/files/student-files.js";
import type { createUploadBudget } from "../server/files/upload-budget.js";
import type { RunFileOutput } from "./executor.js";

/**
 * The files of a multipart upload to the sandbox, read and checked as the
 * app's upload route does, its bytes held against the uploads' shared
 * budget while they are read.
 */
export async function readUpload(
  req: IncomingMessage,
  caps: StudentFileCaps,
  budget: ReturnType<typeof createUploadBudget>,
  participant: string,
): Promise<RunFileOutput[]> {
  const body = budget.open(participant, Readable.toWeb(req) as ReadableStream<Uint8Array>);
  try {
    const checked = await readStudentFiles(
      body.chunks,
      { contentType: req.headers["content-type"], contentLength: req.headers["content-length"] },
      caps,
    );
    return await Promise.all(
      checked.map(async ({ file, name, mediaType }) => ({
        name,
        mediaType,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    );
  } finally {
    body.release();
  }
}
