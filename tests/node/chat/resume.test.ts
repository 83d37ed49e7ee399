// A run belongs to the stored chat, not to the request that started it: it
// goes on when the page goes away, a page that comes back follows it from its
// first chunk (through any server sharing Redis), and Stop ends it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../../src/sandbox";
import { startHarness, type HarnessOptions } from "../../../src/harness";
import { createSqliteChatStore } from "../../../src/server";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A program that prints a line now and two more, a second apart. */
const SLOW_PROGRAM = "```python\nfor i in range(3): print(i)\n```";
const slowExecutor = () =>
  createScriptedExecutor(() => ({
    chunks: [
      { stream: "stdout", text: "one\n" },
      { stream: "stdout", text: "two\n", delayMs: 1000 },
      { stream: "stdout", text: "three\n", delayMs: 1000 },
    ],
  }));

async function harness(options: Partial<HarnessOptions> = {}) {
  const h = await startHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    executor: slowExecutor(),
    ...options,
  });
  cleanups.push(h.close);
  return h;
}

/** One browser: its cookie, kept across requests and servers. */
function browser() {
  let cookie = "";
  return async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...init.headers },
    });
    const set = response.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0]!;
    return response;
  };
}

type Chunk = { type: string; output?: { status?: string; stdout?: string }; preliminary?: boolean; delta?: string };

/** Reads a UI message stream's chunks until `until` holds for one (then stops reading) or the stream ends. */
async function readChunks(response: Response, until: (chunk: Chunk) => boolean = () => false): Promise<Chunk[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const chunks: Chunk[] = [];
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    rest += value;
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith("data: {")) continue;
      const chunk = JSON.parse(line.slice(6)) as Chunk;
      chunks.push(chunk);
      if (until(chunk)) {
        await reader.cancel();
        return chunks;
      }
    }
  }
}

const liveOutput = (chunk: Chunk) =>
  chunk.type === "tool-output-available" && chunk.preliminary === true && /one/.test(chunk.output?.stdout ?? "");
const finalOutput = (chunks: Chunk[]) =>
  chunks.find((chunk) => chunk.type === "tool-output-available" && !chunk.preliminary)?.output;

/** Starts a run of the slow program in a new chat, reads until its first line of output, then goes away as a closed page does. */
async function startAndLeave(send: ReturnType<typeof browser>, url: string, id: string) {
  const page = new AbortController();
  const response = await send(`${url}/api/chat`, {
    method: "POST",
    signal: page.signal,
    body: JSON.stringify({
      id,
      trigger: "submit-message",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: SLOW_PROGRAM }] }],
    }),
  });
  expect(response.status).toBe(200);
  const seen = await readChunks(response, liveOutput);
  expect(seen.some(liveOutput)).toBe(true);
  page.abort();
}

async function storedChat(send: ReturnType<typeof browser>, url: string, id: string) {
  const response = await send(`${url}/api/chats/${id}`, { headers: { accept: "application/json" } });
  return (await response.json()) as {
    status: string;
    error: string | null;
    messages: Array<{ role: string; parts: Array<{ type: string; output?: { status: string; stdout: string } }> }>;
  };
}

const storedOutput = (chat: Awaited<ReturnType<typeof storedChat>>) =>
  chat.messages.at(-1)?.parts.find((part) => part.type === "tool-execute_code")?.output;

describe("a run that outlives its page", () => {
  it("goes on when the page goes away; the page that comes back follows it from its start to its real end", async () => {
    const h = await harness();
    const send = browser();
    await startAndLeave(send, h.url, "chat-reload");

    expect((await storedChat(send, h.url, "chat-reload")).status).toBe("running");
    const resumed = await send(`${h.url}/api/chat/chat-reload/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toContain("text/event-stream");
    const chunks = await readChunks(resumed);
    // From its first chunk: the message, the code, the output so far, then what followed.
    expect(chunks[0]?.type).toBe("start");
    expect(chunks.some(liveOutput)).toBe(true);
    expect(finalOutput(chunks)).toMatchObject({ status: "completed", stdout: "one\ntwo\nthree\n" });
    expect(chunks.at(-1)?.type).toBe("finish");

    const stored = await storedChat(send, h.url, "chat-reload");
    expect(stored.status).toBe("idle");
    expect(storedOutput(stored)).toMatchObject({ status: "completed", stdout: "one\ntwo\nthree\n" });
    // Nothing runs now: the AI SDK's resume gets 204.
    expect((await send(`${h.url}/api/chat/chat-reload/stream`)).status).toBe(204);
  });

  it("is followed by a second tab while the first still reads it", async () => {
    const h = await harness();
    const send = browser();
    const first = await send(`${h.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({
        id: "chat-tabs",
        trigger: "submit-message",
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: SLOW_PROGRAM }] }],
      }),
    });
    const second = await send(`${h.url}/api/chats/chat-tabs/stream`);
    expect(second.status).toBe(200);
    const [a, b] = await Promise.all([readChunks(first), readChunks(second)]);
    expect(finalOutput(a)).toMatchObject({ stdout: "one\ntwo\nthree\n" });
    expect(finalOutput(b)).toEqual(finalOutput(a));
  });

  it("stops when asked: the program ends and the chat keeps the output so far", async () => {
    const h = await harness({
      executor: createScriptedExecutor(() => ({
        chunks: [
          { stream: "stdout", text: "one\n" },
          { stream: "stdout", text: "never\n", delayMs: 60_000 },
        ],
      })),
    });
    const send = browser();
    await startAndLeave(send, h.url, "chat-stop");
    const stop = await send(`${h.url}/api/chats/chat-stop/stop`, { method: "POST", body: "{}" });
    expect(stop.status).toBe(202);
    // The stream a page follows ends, and the chat is stored as ended.
    const followed = await send(`${h.url}/api/chat/chat-stop/stream`);
    if (followed.status === 200) await readChunks(followed);
    let stored = await storedChat(send, h.url, "chat-stop");
    for (let tries = 0; stored.status === "running" && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await storedChat(send, h.url, "chat-stop");
    }
    expect(stored.status).not.toBe("running");
    expect(JSON.stringify(stored.messages)).not.toContain("never");
    // What it printed stays, stamped with when it stopped: the card says how long it ran, after a reload too.
    const output = storedOutput(stored) as { status: string; stdout: string; startedAt: number; stoppedAt: number };
    expect(output).toMatchObject({ status: "running", stdout: "one\n" });
    expect(output.stoppedAt).toBeGreaterThanOrEqual(output.startedAt);
    // Nothing runs: a second stop has nothing to stop.
    expect((await send(`${h.url}/api/chats/chat-stop/stop`, { method: "POST", body: "{}" })).status).toBe(204);
  });

  it("a stop right after an approval, before the program returned, leaves a chat that goes on", async () => {
    let calls = 0;
    const h = await harness({
      // The first program takes a while to start: the stop lands between the approval and any output.
      executor: createScriptedExecutor(() =>
        ++calls === 1 ? { delayMs: 30_000, stdout: "late\n" } : { stdout: "next\n" },
      ),
    });
    const send = browser();
    const json = { accept: "application/json" };
    const created = (await (
      await send(`${h.url}/api/chats`, { method: "POST", body: JSON.stringify({ confirmCodeExecution: true }) })
    ).json()) as { id: string };
    const asked = (await (
      await send(`${h.url}/api/chats/${created.id}/messages`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ text: SLOW_PROGRAM }),
      })
    ).json()) as {
      required_action: { approvals: Array<{ approval_id: string }> };
    };
    const approved = await send(`${h.url}/api/chats/${created.id}/tool-results`, {
      method: "POST",
      body: JSON.stringify({
        results: [],
        approvals: [{ approval_id: asked.required_action.approvals[0]!.approval_id, approved: true }],
      }),
    });
    expect(approved.status).toBe(200);
    expect((await send(`${h.url}/api/chats/${created.id}/stop`, { method: "POST", body: "{}" })).status).toBe(202);
    await readChunks(approved);
    let stored = await storedChat(send, h.url, created.id);
    for (let tries = 0; stored.status === "running" && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await storedChat(send, h.url, created.id);
    }
    // The call has a result, the card reads it as stopped, and the model can read the chat.
    expect(storedOutput(stored)).toMatchObject({ status: "error", code: "run_stopped" });
    const next = await send(`${h.url}/api/chats/${created.id}/messages`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ text: "```python\nprint(2)\n```" }),
    });
    expect(next.status).toBe(200);
    const after = (await next.json()) as Awaited<ReturnType<typeof storedChat>>;
    expect(after.status).not.toBe("error");
  });

  it("is followed by at most 8 clients at once: the next gets 429 until one goes away", async () => {
    const h = await harness();
    const send = browser();
    await startAndLeave(send, h.url, "chat-crowd");
    const followers = await Promise.all(Array.from({ length: 8 }, () => send(`${h.url}/api/chat/chat-crowd/stream`)));
    expect(followers.map((response) => response.status)).toEqual(Array(8).fill(200));
    const ninth = await send(`${h.url}/api/chat/chat-crowd/stream`);
    expect(ninth.status).toBe(429);
    expect(await ninth.json()).toMatchObject({ error: "too_many_followers" });
    await followers[0]!.body!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await send(`${h.url}/api/chat/chat-crowd/stream`);
    expect(again.status).toBe(200);
    for (const response of [...followers.slice(1), again])
      expect(finalOutput(await readChunks(response))).toMatchObject({ stdout: "one\ntwo\nthree\n" });
  });

  it("answers 404 for another browser's chat, and stops nothing of it", async () => {
    const h = await harness();
    const owner = browser();
    await startAndLeave(owner, h.url, "chat-owned");
    const stranger = browser();
    expect((await stranger(`${h.url}/api/chat/chat-owned/stream`)).status).toBe(404);
    expect((await stranger(`${h.url}/api/chats/chat-owned/stop`, { method: "POST", body: "{}" })).status).toBe(404);
    const chunks = await readChunks(await owner(`${h.url}/api/chat/chat-owned/stream`));
    expect(finalOutput(chunks)).toMatchObject({ status: "completed", stdout: "one\ntwo\nthree\n" });
  });
});

describe("a run whose server went away", () => {
  it("a server that shuts down stores how its runs ended: after a restart the chat is not running, and goes on", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ecu-shutdown-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await startHarness({
      port: 0,
      dataDir: dir,
      chunkDelayMs: 0,
      executor: createScriptedExecutor(() => ({
        chunks: [
          { stream: "stdout", text: "one\n" },
          { stream: "stdout", text: "never\n", delayMs: 60_000 },
        ],
      })),
    });
    const send = browser();
    await startAndLeave(send, first.url, "chat-shutdown");
    await first.close();

    const second = await harness({ database: undefined, dataDir: dir });
    const stored = await storedChat(send, second.url, "chat-shutdown");
    expect(stored.status).toBe("idle");
    expect(JSON.stringify(stored.messages)).not.toContain("never");
    const next = await send(`${second.url}/api/chats/chat-shutdown/messages`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: JSON.stringify({ text: SLOW_PROGRAM }),
    });
    expect(next.status).toBe(200);
    expect(storedOutput((await next.json()) as Awaited<ReturnType<typeof storedChat>>)).toMatchObject({
      stdout: "one\ntwo\nthree\n",
    });
  });

  it("a run left running by a server that died is marked ended as soon as anyone reads the chat, and the chat goes on", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ecu-orphan-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const h = await harness({ database: undefined, dataDir: dir });
    const send = browser();
    const participant = ((await (await send(`${h.url}/api/session`)).json()) as { participant: string }).participant;
    // What a server that died mid-run leaves: the chat stored as running, and no one keeping its stream.
    const store = await createSqliteChatStore({ dataDir: dir });
    const time = Date.now() - 60_000;
    await store.insert({
      id: "chat-orphan",
      owner: participant,
      status: "running",
      version: 1,
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: SLOW_PROGRAM }] }],
      tools: [],
      options: {},
      approvals: {},
      error: null,
      createdAt: time,
      updatedAt: time,
    });
    await store.close();

    expect(await storedChat(send, h.url, "chat-orphan")).toMatchObject({
      status: "error",
      error: "The server stopped while answering.",
    });
    expect((await send(`${h.url}/api/chat/chat-orphan/stream`)).status).toBe(204);
    const next = await send(`${h.url}/api/chats/chat-orphan/messages`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: JSON.stringify({ text: SLOW_PROGRAM }),
    });
    expect(next.status).toBe(200);
    expect(storedOutput((await next.json()) as Awaited<ReturnType<typeof storedChat>>)).toMatchObject({
      stdout: "one\ntwo\nthree\n",
    });
  });
});

/** A private redis-server on a free loopback port, stopped after the test. */
async function startRedis(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  cleanups.push(() => child.kill());
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.stdout!.on("data", (data: Buffer) => {
      if (data.toString().includes("Ready to accept connections")) resolve();
    });
  });
  return `redis://127.0.0.1:${port}`;
}

describe("two chat servers on one store and one Redis", () => {
  it("a page that comes back through the other server follows the run to its end, and can stop a run there", async () => {
    const redisUrl = await startRedis();
    const dir = mkdtempSync(path.join(tmpdir(), "ecu-resume-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const a = await harness({ database: undefined, dataDir: dir, redisUrl });
    const b = await harness({ database: undefined, dataDir: dir, redisUrl });
    const send = browser();

    await startAndLeave(send, a.url, "chat-across");
    const resumed = await send(`${b.url}/api/chat/chat-across/stream`);
    expect(resumed.status).toBe(200);
    const chunks = await readChunks(resumed);
    expect(chunks[0]?.type).toBe("start");
    expect(finalOutput(chunks)).toMatchObject({ status: "completed", stdout: "one\ntwo\nthree\n" });
    expect(storedOutput(await storedChat(send, b.url, "chat-across"))).toMatchObject({ stdout: "one\ntwo\nthree\n" });

    // Stop through B reaches the run on A.
    await startAndLeave(send, a.url, "chat-stop-across");
    expect((await send(`${b.url}/api/chats/chat-stop-across/stop`, { method: "POST", body: "{}" })).status).toBe(202);
    const followed = await send(`${b.url}/api/chat/chat-stop-across/stream`);
    const rest = followed.status === 200 ? await readChunks(followed) : [];
    expect(finalOutput(rest)?.stdout ?? "").not.toContain("three");
    let stored = await storedChat(send, b.url, "chat-stop-across");
    for (let tries = 0; stored.status === "running" && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await storedChat(send, b.url, "chat-stop-across");
    }
    expect(stored.status).not.toBe("running");
    expect(JSON.stringify(stored.messages)).not.toContain("three");
  });
});
