// Python's files for the browser executor: 13 MB that anyone may ask for
// without a cookie. A browser keeps them for good; a stranger who asks for
// them over and over is told to wait, and so is everyone past what the
// server sends at once.
import { createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createPyodideFileHandler, type PyodideFileLimits } from "../../src/harness/pyodide-files";

let close: (() => void) | undefined;
afterEach(() => close?.());

async function serve(limits: PyodideFileLimits) {
  const handle = createPyodideFileHandler("/pyodide/", limits);
  const server = createServer((req, res) => {
    if (!handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => {
    server.closeAllConnections();
    server.close();
  };
  const port = (server.address() as AddressInfo).port;
  /** A GET whose body is read only once `read()` is called: a client still being sent its file. */
  const get = (file: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; read: () => Promise<number> }>(
      (resolve, reject) => {
        request({ host: "127.0.0.1", port, path: `/pyodide/${file}`, headers }, (res) => {
          res.pause();
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            read: () =>
              new Promise((done) => {
                let size = 0;
                res.on("data", (chunk: Buffer) => (size += chunk.length)).on("end", () => done(size));
                res.resume();
              }),
          });
        })
          .on("error", reject)
          .end();
      },
    );
  return { get };
}

const byClient = (req: IncomingMessage) => String(req.headers["x-client"] ?? "");

describe("Python's files for the browser", () => {
  it("are kept by the browser for good and revalidated by their version", async () => {
    const { get } = await serve({});
    const first = await get("pyodide-lock.json");
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(first.headers.etag).toMatch(/^"pyodide-\d+\.\d+\.\d+-pyodide-lock\.json"$/);
    await first.read();
    const again = await get("pyodide-lock.json", { "if-none-match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(await again.read()).toBe(0);
  });

  it("are sent to one client only so much in a window, then it is told when to come back", async () => {
    const { get } = await serve({ clientOf: byClient, budget: { bytes: 1_000_000, windowMs: 60_000 } });
    const whole = await get("python_stdlib.zip", { "x-client": "a" });
    expect(whole.status).toBe(200);
    expect(await whole.read()).toBeGreaterThan(1_000_000);
    const refused = await get("python_stdlib.zip", { "x-client": "a" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    await refused.read();
    // Another client is not held back by the first.
    const other = await get("pyodide-lock.json", { "x-client": "b" });
    expect(other.status).toBe(200);
    await other.read();
  });

  it("are sent a few at a time to one client, and so many at a time in all", async () => {
    const { get } = await serve({ clientOf: byClient, maxPerClientInFlight: 2, maxInFlight: 3 });
    const held = [
      await get("pyodide.asm.wasm", { "x-client": "a" }),
      await get("pyodide.asm.wasm", { "x-client": "a" }),
    ];
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    const third = await get("pyodide.asm.wasm", { "x-client": "a" });
    expect(third.status).toBe(429);
    await third.read();
    held.push(await get("pyodide.asm.wasm", { "x-client": "b" }));
    const full = await get("pyodide.asm.wasm", { "x-client": "c" });
    expect(full.status).toBe(503);
    expect(full.headers["retry-after"]).toBe("5");
    await full.read();
    // Once the files have gone out, a client is answered again.
    await Promise.all(held.map((response) => response.read()));
    await expect
      .poll(async () => {
        const next = await get("pyodide-lock.json", { "x-client": "c" });
        await next.read();
        return next.status;
      })
      .toBe(200);
  });
});
