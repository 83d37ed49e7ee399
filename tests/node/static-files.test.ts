import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticHandler } from "../../src/harness/static-files";

let port: number;
const server = createServer((req, res) => {
  void createStaticHandler(root)(req, res).catch(() => res.writeHead(500).end());
});
const root = mkdtempSync(path.join(os.tmpdir(), "static-files-"));
beforeAll(async () => {
  writeFileSync(path.join(root, "index.html"), "<p>demo</p>");
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** A GET with the path exactly as written (fetch would normalise the dots away). */
const get = (rawPath: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: rawPath }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    })
      .on("error", reject)
      .end();
  });

describe("the demo's static files", () => {
  it.each([
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2e%2e%5c..%5cetc/passwd",
  ])("do not serve files outside their folder: %s", async (rawPath) => {
    const { status, body } = await get(rawPath);
    expect(body).not.toContain("root:");
    expect([200, 403, 404]).toContain(status);
  });

  it("do not serve a sibling folder whose name starts with theirs", async () => {
    const sibling = `${root}-private`;
    mkdirSync(sibling, { recursive: true });
    writeFileSync(path.join(sibling, "secret.txt"), "not for the page");
    const { body } = await get(`/%2e%2e/${path.basename(sibling)}/secret.txt`);
    expect(body).not.toContain("not for the page");
  });

  it("answer a malformed escape with a 400, and go on serving", async () => {
    expect(await get("/%E0%A4%A")).toEqual({ status: 400, body: "The path is not valid percent-encoding." });
    expect((await get("/")).body).toBe("<p>demo</p>");
  });
});
