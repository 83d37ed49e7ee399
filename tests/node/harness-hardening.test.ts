// The harness left running for strangers: no request ends it, no input
// takes it long, no other site reaches it, and its health says nothing of
// the host.
import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import { programFor } from "../../src/harness/scripted-programs";
import { startHarness, type RunningHarness } from "../../src/harness";

let harness: RunningHarness;
beforeAll(async () => {
  harness = await startHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    executor: createScriptedExecutor(() => ({ stdout: "1\n" })),
  });
});
afterAll(() => harness?.close());

/** A request with the path and Host header exactly as written; a GET to the shared harness unless told otherwise. */
const raw = (
  path: string,
  headers: Record<string, string> = {},
  {
    port = harness.port,
    method = "GET",
    agent,
    body,
  }: { port?: number; method?: string; agent?: Agent; body?: string } = {},
) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      request({ host: "127.0.0.1", port, path, method, agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      })
        .on("error", reject)
        .end(body);
    },
  );

describe("the harness, as a stranger may use it", () => {
  it("a path that is not valid percent-encoding is a 400, and the server goes on answering", async () => {
    for (const path of ["/api/%ZZ", "/%ZZ", "/api/chats/%E0%A4%A"]) {
      expect((await raw(path)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await raw("/v1/health")).status).toBe(200);
  });

  it("answers only its own host names when bound to loopback", async () => {
    expect((await raw("/v1/health", { host: `evil.example:${harness.port}` })).status).toBe(421);
    expect((await raw("/v1/health", { host: `localhost:${harness.port}` })).status).toBe(200);
  });

  it("sends a CSP that forbids framing, nosniff and no referrer with its pages", async () => {
    const { headers } = await raw("/");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("object-src 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
  });

  it("lets the browser executor's opaque-origin worker start and read Pyodide, and lets a page program reach only its own origin", async () => {
    const page = await raw("/");
    expect(page.headers["content-security-policy"]).toMatch(/worker-src [^;]*data:/);
    expect(page.headers["content-security-policy"]).toContain("connect-src 'self'");
    const file = await raw("/pyodide/pyodide-lock.json", { origin: "null" });
    expect(file.status).toBe(200);
    expect(file.headers["access-control-allow-origin"]).toBe("*");
    // Public files only: nothing else under the path, and no credentials are allowed with them.
    expect(file.headers["access-control-allow-credentials"]).toBeUndefined();
    expect((await raw("/pyodide/package.json")).status).toBe(404);
  });

  it("refuses an /api/generate prompt longer than a chat message may be", async () => {
    const response = await fetch(`${harness.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "`".repeat(200_000) }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("The prompt is longer than 100000 characters.");
  });

  it("finds a fenced program as before, and none in a long line of backticks", () => {
    expect(programFor("Run this:\n```python\nprint(1)\n```\nthanks")).toBe("print(1)");
    expect(programFor("```\nprint(2)\n```")).toBe("print(2)");
    expect(programFor("`".repeat(100_000))).toBeNull();
    expect(programFor(`\`\`\`python\n${"`".repeat(99_990)}`)).toBe("");
  });

  it("shows no host process ids in its health check", async () => {
    const health = await (await fetch(`${harness.url}/v1/health`)).text();
    expect(health).not.toMatch(/"pid"/);
  });
});

describe("the harness under a flood of idle connections to its port", () => {
  it("still answers a newcomer, and runs the program of a student whose page is connected", async () => {
    const flooded = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      executor: createScriptedExecutor(() => ({ stdout: "ran under the flood\n" })),
      connections: { total: 8 },
    });
    // The page's one connection, kept open between its requests.
    const page = new Agent({ keepAlive: true, maxSockets: 1 });
    const idle: Socket[] = [];
    const generate = (cookie?: string) =>
      raw(
        "/api/generate",
        { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        {
          port: flooded.port,
          method: "POST",
          agent: page,
          body: JSON.stringify({ prompt: "```python\nprint(1)\n```" }),
        },
      );
    try {
      const first = await generate();
      expect(first.body).toContain("ran under the flood");
      // Loopback clients are not limited per address (a proxy on this host stands for everyone): these
      // take every connection the port has, the page's kept-alive one among them.
      await Promise.all(
        Array.from({ length: 10 }, () => {
          const socket = connect(flooded.port, "127.0.0.1");
          idle.push(socket);
          return new Promise((settled) => {
            socket
              .once("connect", settled)
              .once("close", settled)
              .on("error", () => undefined);
          });
        }),
      );
      // A newcomer takes the place of the longest idle connection, and is answered at once.
      const health = await fetch(`${flooded.url}/v1/health`);
      expect(health.status).toBe(200);
      await expect.poll(() => idle.some((socket) => socket.destroyed), { timeout: 30_000 }).toBe(true);
      const cookie = String(first.headers["set-cookie"] ?? "").split(";")[0];
      const again = await generate(cookie);
      expect(again.status).toBe(200);
      expect(again.body).toContain("ran under the flood");
      expect(again.body).not.toContain("connection_reset");
    } finally {
      for (const socket of idle) socket.destroy();
      page.destroy();
      await flooded.close();
    }
  });
});
