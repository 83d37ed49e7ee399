import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
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

/**
 * Serves the `pyodide` package's browser files under `prefix` (default
 * `/pyodide/`) from this origin, so the browser executor loads Python from
 * no CDN. Only the files Pyodide needs to start are served; anything else
 * under the prefix is a 404. Returns false for paths outside the prefix.
 */
export function createPyodideFileHandler(prefix = "/pyodide/") {
  const dir = pyodidePackageDir();
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
    const file = path.join(dir, name);
    const headers = {
      "content-type": type,
      "cache-control": "public, max-age=86400",
      // The worker runs at an opaque origin (a data: URL), so it loads these as a cross-origin reader, without cookies.
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
    };
    void sendFile(req, res, file, headers).then((sent) => {
      if (!sent) res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    });
    return true;
  };
}
