// Many clients downloading at once cannot take the harness down: when the
// process has no file descriptor left to open a file, that request is a 503
// and the server goes on answering the others.
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/static-file-server.ts");

describe("the harness's files, out of file descriptors", () => {
  it.skipIf(process.platform !== "linux")(
    "answer 503 to what they cannot open, stay up, and serve the whole file once descriptors are free",
    async () => {
      // 96 descriptors in all: Node itself holds a few dozen, each connection one, each file read one more.
      const server = spawn("prlimit", ["--nofile=96:96", process.execPath, "--import", "tsx", serverScript], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let exited: number | null = null;
      let stderr = "";
      server.once("exit", (code) => (exited = code ?? -1));
      server.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      try {
        const port = await new Promise<number>((resolve, reject) => {
          server.stdout.setEncoding("utf8").once("data", (chunk: string) => resolve(Number(chunk.trim())));
          server.once("exit", (code) => reject(new Error(`the server exited early (${code}): ${stderr}`)));
        });
        // Clients that ask for a large file and never read it: each holds its connection and, if it got one, the file.
        const statuses: string[] = [];
        const hoarders: Socket[] = Array.from({ length: 120 }, () => {
          const socket = connect(port, "127.0.0.1").on("error", () => undefined);
          socket.setEncoding("latin1").once("data", (chunk: string) => statuses.push(chunk.slice(9, 12)));
          socket.write(`GET /large.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          return socket;
        });
        await expect.poll(() => statuses.includes("503"), { timeout: 30_000 }).toBe(true);
        for (const socket of hoarders) socket.destroy();
        // Still up, and the file comes whole.
        await expect
          .poll(
            async () => {
              const response = await fetch(`http://127.0.0.1:${port}/large.js`).catch(() => null);
              return response?.ok ? (await response.text()).length : 0;
            },
            { timeout: 30_000, interval: 500 },
          )
          .toBe(4 * 1024 * 1024);
        expect(exited).toBeNull();
        expect(stderr).not.toMatch(/EMFILE|Error/);
      } finally {
        server.kill();
      }
    },
    90_000,
  );
});
