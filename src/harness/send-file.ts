import { open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";

/**
 * Answers with a file, and says so; when there is no such file (or it is a
 * folder) answers nothing and returns false, for the caller to say what
 * then. A process with no descriptor left to open it (many clients at once)
 * answers 503. A file or client that fails halfway ends that response only,
 * not the server.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  headers: Record<string, string>,
  /** Told the body's size as it starts going out (not for HEAD). */
  onBody?: (bytes: number) => void,
): Promise<boolean> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error) {
    if (handle.code !== "EMFILE" && handle.code !== "ENFILE") return false;
    res
      .writeHead(503, { "content-type": "text/plain", "retry-after": "5" })
      .end("The server is busy; try again in a few seconds.");
    return true;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return false;
    res.writeHead(200, { ...headers, "content-length": info.size });
    if (req.method === "HEAD") {
      res.end();
      return true;
    }
    onBody?.(info.size);
    // A client that goes away, or a read that fails, ends the response; neither is the server's error.
    await pipeline(handle.createReadStream({ autoClose: false }), res).catch(() => undefined);
    return true;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
