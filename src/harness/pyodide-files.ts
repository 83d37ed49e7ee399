import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { createReadBudget, type ReadBudget } from "./read-budget.js";
import { sendFile } from "./send-file.js";

/** The files of the `pyodide` package that a browser needs to start Python, with their types. */
const FILES: Record<string, string> = {
  "pyodide.js": "text/javascript; charset=utf-8",
  "pyodide.mjs": "text/javascript; charset=utf-8",
  "pyodide.asm.mjs": "text/javascript; charset=utf-8",
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
};

/** The folder of the installed `pyodide` package, or null when it is not installed. */
export function pyodidePackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve("pyodide"));
  } catch {
    return null;
  }
}

/** How much of these files one client may be sent, and how many at once. */
export interface PyodideFileLimits {
  /**
   * Who a request comes from (its address, say); a request with none counts
   * only against `maxInFlight`.
   */
  clientOf?: (req: IncomingMessage) => string | undefined;
  /**
   * Bytes one client may be sent in a window; past it, 429 with `Retry-After`.
   * @default 64 MiB a minute (four whole starts; a browser caches them a year)
   */
  budget?: ReadBudget;
  /** @default 2 */
  maxPerClientInFlight?: number;
  /** Files being sent at once, to everyone; past it, 503 with `Retry-After`. @default 16 */
  maxInFlight?: number;
}

const refuse = (res: ServerResponse, status: number, seconds: number, text: string) =>
  res.writeHead(status, { "content-type": "text/plain", "retry-after": String(seconds) }).end(text);

/**
 * Serves the `pyodide` package's browser files under `prefix` (default
 * `/pyodide/`) from this origin, so the browser executor loads Python from
 * no CDN. Only the files Pyodide needs to start are served; anything else
 * under the prefix is a 404. Returns false for paths outside the prefix.
 * (security) They take no cookie (the worker reads them without one) and
 * weigh 13 MB: they are cached by browsers for good (a version's files never
 * change) and revalidated by ETag, and what strangers can make the server
 * send is bounded per client and in all.
 */
export function createPyodideFileHandler(prefix = "/pyodide/", limits: PyodideFileLimits = {}) {
  const dir = pyodidePackageDir();
  const version = dir ? pyodideVersion(dir) : "";
  const budget = createReadBudget(limits.budget ?? { bytes: 64 * 1024 * 1024, windowMs: 60_000 });
  const perClient = limits.maxPerClientInFlight ?? 2;
  const maxInFlight = limits.maxInFlight ?? 16;
  const sending = new Map<string, number>();
  let inFlight = 0;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (!pathname.startsWith(prefix)) return false;
    const name = pathname.slice(prefix.length);
    const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!dir || !type || (req.method !== "GET" && req.method !== "HEAD")) {
      res
        .writeHead(404, { "content-type": "text/plain" })
        .end(dir ? "Not found" : "The pyodide package is not installed.");
      return true;
    }
    const etag = `"pyodide-${version}-${name}"`;
    const headers = {
      "content-type": type,
      "cache-control": "public, max-age=31536000, immutable",
      etag,
      // The worker runs at an opaque origin (a data: URL), so it loads these as a cross-origin reader, without cookies.
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
    };
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    const client = limits.clientOf?.(req);
    if (client !== undefined) {
      const allowed = budget.check(client);
      if (!allowed.allowed) {
        refuse(
          res,
          429,
          Math.ceil(allowed.retryAfterMs / 1000),
          "Python's files were sent here often just now; try again later.",
        );
        return true;
      }
      if ((sending.get(client) ?? 0) >= perClient) {
        refuse(res, 429, 1, "Python's files are being sent here already.");
        return true;
      }
    }
    if (inFlight >= maxInFlight) {
      refuse(res, 503, 5, "The server is busy sending Python's files; try again in a few seconds.");
      return true;
    }
    inFlight++;
    if (client !== undefined) sending.set(client, (sending.get(client) ?? 0) + 1);
    res.once("close", () => {
      inFlight--;
      if (client === undefined) return;
      const left = sending.get(client)! - 1;
      if (left) sending.set(client, left);
      else sending.delete(client);
    });
    const file = path.join(dir, name);
    // Charged as the file starts going out, so the next request already sees it.
    const charge = client === undefined ? undefined : (bytes: number) => budget.charge(client, bytes);
    void sendFile(req, res, file, headers, charge).then((sent) => {
      if (!sent) res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    });
    return true;
  };
}

/** The installed package's version, which names its files' one content. */
function pyodideVersion(dir: string): string {
  try {
    return String(JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version);
  } catch {
    return "unknown";
  }
}
