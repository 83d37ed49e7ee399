import { open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";

/**
 * Answers with a file: 404 when it is not there, 503 when the process has
 * no descriptor left to open it (many clients at once), and a stream that
 * ends, or is torn down, without taking the server with it when the file
 * or the client fails halfway.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  headers: (size: number) => Record<string, string | number>,
): Promise<void> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error) {
    const busy = handle.code === "EMFILE" || handle.code === "ENFILE";
    res
      .writeHead(busy ? 503 : 404, { "content-type": "text/plain", ...(busy ? { "retry-after": "5" } : {}) })
      .end(busy ? "The server is busy; try again in a few seconds." : "Not found");
    return;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    res.writeHead(200, { ...headers(info.size), "content-length": info.size });
    if (req.method === "HEAD") res.end();
    // A client that goes away, or a read that fails, ends the response; neither is the server's error.
    else await pipeline(handle.createReadStream({ autoClose: false }), res).catch(() => undefined);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
