// `execute-code-ui-sandbox`, as a course deploys it: keygen makes the keys,
// serve answers the server tool with the token key and codeapi's clients
// with the API key, and a stop lets a running program answer first.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finalOutput } from "./tool-runs";

const CLI = fileURLToPath(new URL("../../src/sandbox/cli.ts", import.meta.url));
const cli = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8", timeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), "sandbox-keys-"));
const keys = join(dir, "keys");
let server: ChildProcess;
let url: string;
let exited: Promise<number | null>;

beforeAll(async () => {
  expect(cli(["keygen", "--keys", keys]).status).toBe(0);
  server = spawn(process.execPath, ["--import", "tsx", CLI, "serve", "--keys", keys, "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
  let said = "";
  url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      said += chunk;
      const found = /listens on (http:\/\/\S+) \(/.exec(said);
      if (found) resolve(found[1]!);
    });
    server.once("exit", () => reject(new Error(`serve ended: ${said}`)));
  });
}, 120_000);
afterAll(() => {
  delete process.env.SANDBOX_KEYS_DIR;
  delete process.env.SANDBOX_URL;
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const exec = (body: Record<string, unknown>, stream = false) =>
  fetch(`${url}/v1/exec`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": readFileSync(join(keys, "api-key"), "utf8").trim(),
      ...(stream ? { accept: "application/x-ndjson" } : {}),
    },
    body: JSON.stringify({ lang: "py", user_id: "u1", ...body }),
  });

describe("execute-code-ui-sandbox", () => {
  it("keygen writes the secrets for their owner alone, and will not replace them unasked", () => {
    expect(statSync(join(keys, "token-private.pem")).mode & 0o777).toBe(0o600);
    expect(statSync(join(keys, "api-key")).mode & 0o777).toBe(0o600);
    const again = cli(["keygen", "--keys", keys]);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already exist; --force replaces them/);
  });

  it("serve runs the server tool's programs, signed with the key keygen made (examples/deployed-sandbox.ts)", async () => {
    process.env.SANDBOX_KEYS_DIR = keys;
    process.env.SANDBOX_URL = url;
    const { tools } = await import("../../examples/deployed-sandbox");
    const tool = tools({ participantId: "student-1", chatId: "chat-1", options: {}, files: [] }).execute_code;
    expect(await finalOutput(tool, "import os\nprint(os.getcwd(), 6 * 7)")).toMatchObject({
      status: "completed",
      stdout: "/mnt/data 42\n",
    });
  });

  it("serve answers codeapi's clients with the API key, and refuses anyone without it", async () => {
    const answer = await exec({ code: "print('hi')" });
    expect(await answer.json()).toMatchObject({ stdout: "hi\n", session_id: expect.stringMatching(/^[\w-]{21}$/) });
    const stranger = await fetch(`${url}/v1/exec`, { method: "POST", body: "{}" });
    expect(stranger.status).toBe(401);
    // Its health tells anyone that it is up and which engine runs; the counts are an operator's.
    expect(await (await fetch(`${url}/v1/health`)).json()).toEqual({ status: "ok", executor: expect.any(String) });
  });

  it("a stop lets a running program answer, then the service ends", async () => {
    const response = await exec({ code: "import time\ntime.sleep(1.5)\nprint('finished')" }, true);
    // Its answer streams: once it says the program started, the service is told to stop.
    const lines: Array<Record<string, unknown>> = [];
    let text = "";
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
        const line = JSON.parse(text.slice(0, end)) as Record<string, unknown>;
        text = text.slice(end + 1);
        lines.push(line);
        if (line.type === "started") server.kill("SIGTERM");
      }
    }
    expect(lines.at(-1)).toMatchObject({ type: "result", stdout: "finished\n", code: 0 });
    expect(await exited).toBe(0);
  });

  it("says what is wrong with a setting, and exits 2", () => {
    const wrong = cli(["serve", "--keys", keys, "--engine", "ruby"]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('The engine must be auto, cpython or pyodide; got "ruby".');
    const missing = cli(["serve", "--keys", join(dir, "none")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("keygen --keys");
  });
});
