import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { sendFile } from "./send-file.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".map": "application/json",
};

/** The page itself is asked for anew each time; its hashed assets are kept an hour. */
const headersFor = (file: string) => ({
  "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
  "cache-control": file.endsWith("index.html") ? "no-cache" : "public, max-age=3600",
});

export interface StaticHandlerOptions {
  /** Called before the page itself (index.html) is sent: to set its cookies, say. */
  beforePage?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/** Serves a built single-page app from `root`; unknown paths get its index.html. */
export function createStaticHandler(root: string, options: StaticHandlerOptions = {}) {
  const base = path.resolve(root);
  const index = path.join(base, "index.html");
  const sendPage = async (req: IncomingMessage, res: ServerResponse) => {
    await options.beforePage?.(req, res);
    return sendFile(req, res, index, headersFor(index));
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let pathname: string;
    try {
      pathname = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("The path is not valid percent-encoding.");
      return;
    }
    const file = path.resolve(base, `.${pathname}`);
    // The folder itself or below it: `base` alone would also match a sibling such as `demo-private`.
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    if (file !== index && file !== base && (await sendFile(req, res, file, headersFor(file)))) return;
    if (await sendPage(req, res)) return;
    res.writeHead(404, { "content-type": "text/plain" }).end("The demo page is not built: run `npm start`.");
  };
}
