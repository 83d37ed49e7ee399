import { createServer } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CappedText, keepHeadAndTail, type SkippedOutput } from "../../src/contract/truncate";
import { createScriptedExecutor, type Executor, type RunOutcome, type ScriptedAnswer } from "../../src/sandbox";
import { collectOutput } from "../../src/sandbox/executor";
import { createExecuteCodeTool } from "../../src/server";
import { throttleLatest } from "../../src/server/tool/throttle-latest";
import { listen, startSandbox } from "./sandbox-fixture";
import { runTool } from "./tool-runs";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  while (cleanups.length) await cleanups.pop()!();
});

/** The demo's tick program, scripted: a line, a pause, more lines. */
const ticks: ScriptedAnswer = {
  chunks: [
    { stream: "stdout", text: "tick 0\n" },
    { stream: "stderr", text: "warming up\n", delayMs: 150 },
    { stream: "stdout", text: "tick 1\n", delayMs: 150 },
    { stream: "stdout", text: "tick 2\n", delayMs: 150 },
  ],
};

const finished = (stdout: string): RunOutcome => ({
  stdout,
  stderr: "",
  exitCode: 0,
  signal: null,
  wallTimeMs: 5,
  timedOut: false,
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function sandboxWith(executor: Executor) {
  const sandbox = await startSandbox(executor);
  cleanups.push(sandbox.close);
  return sandbox;
}

async function exec(sandbox: Awaited<ReturnType<typeof sandboxWith>>, accept?: string) {
  return fetch(new URL("/v1/exec", sandbox.url), {
    method: "POST",
    headers: {
      authorization: `Bearer ${await sandbox.minter.mint({ participantId: "p", tenantId: "t" })}`,
      "content-type": "application/json",
      ...(accept ? { accept } : {}),
    },
    body: JSON.stringify({ lang: "py", code: "ticks()" }),
  });
}

const tool = (sandboxUrl: string, signing: Awaited<ReturnType<typeof startSandbox>>["signing"], extra = {}) =>
  createExecuteCodeTool({ sandboxUrl, signing, participantId: "p", tenantId: "t", ...extra });

/** The lines of an NDJSON body, one at a time. */
function lineReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async (): Promise<Record<string, unknown> | null> => {
    while (!buffer.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
    const end = buffer.indexOf("\n");
    const line = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    return JSON.parse(line) as Record<string, unknown>;
  };
}

describe("the sandbox streams a run on request", () => {
  it("sends output while the program still runs, and the flat answer last", async () => {
    const gate = deferred();
    const sandbox = await sandboxWith({
      async run({ onOutput }) {
        onOutput?.("stdout", "tick 0\n");
        await gate.promise;
        onOutput?.("stdout", "tick 1\n");
        return finished("tick 0\ntick 1\n");
      },
      async close() {},
    });
    const response = await exec(sandbox, "application/x-ndjson");
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const next = lineReader(response);
    // The program has not finished: it waits for the gate, which opens only now.
    expect(await next()).toEqual({ type: "output", stream: "stdout", text: "tick 0\n" });
    gate.resolve();
    expect(await next()).toEqual({ type: "output", stream: "stdout", text: "tick 1\n" });
    expect(await next()).toMatchObject({ type: "result", stdout: "tick 0\ntick 1\n", code: 0 });
    expect(await next()).toBeNull();
  });

  it("answers plain JSON, as the codeapi contract says, to a client that does not ask for a stream", async () => {
    const sandbox = await sandboxWith(createScriptedExecutor(() => ticks));
    const response = await exec(sandbox);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({
      stdout: "tick 0\ntick 1\ntick 2\n",
      stderr: "warming up\n",
      code: 0,
    });
  });

  it("still answers a fault plainly when it comes before any output", async () => {
    const sandbox = await sandboxWith(
      createScriptedExecutor(() => ({ fault: { kind: "rate-limit", retryAfterSeconds: 4 } })),
    );
    const response = await exec(sandbox, "application/x-ndjson");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("4");
  });
});

describe("the server tool passes live output on", () => {
  it("yields the output so far while the program runs, then the final result", async () => {
    const sandbox = await sandboxWith(createScriptedExecutor(() => ticks));
    const { preliminary, final } = await runTool(tool(sandbox.url, sandbox.signing), "ticks()");
    expect(preliminary.length).toBeGreaterThanOrEqual(3);
    // Each carries the run's limit (the sandbox's 10 s, shorter than the tool's 60 s); the first comes as the program starts, before it prints.
    for (const output of preliminary) expect(output).toMatchObject({ status: "running", timeoutMs: 10_000 });
    expect(preliminary[0]).toMatchObject({ stdout: "", stderr: "" });
    // Output comes while the program runs: the first with any holds the first tick (on a busy machine the
    // tool may read the stderr line that follows 150 ms later in the same piece), before the run's whole output.
    const stdouts = preliminary.map((output) => (output as { stdout: string }).stdout);
    expect(stdouts.find((stdout) => stdout !== "")).toBe("tick 0\n");
    // Each one holds everything printed so far.
    expect(stdouts).toEqual([...stdouts].sort((a, b) => a.length - b.length));
    expect(final).toMatchObject({
      status: "completed",
      stdout: "tick 0\ntick 1\ntick 2\n",
      stderr: "warming up\n",
      exitCode: 0,
    });
  });

  it("ends with exactly the result a non-streaming run of the same program gives", async () => {
    const streaming = await sandboxWith(createScriptedExecutor(() => ticks));
    const streamed = await runTool(tool(streaming.url, streaming.signing), "ticks()");
    // A sandbox that only speaks plain JSON: it ignores what the client accepts.
    const plain = await sandboxWith(createScriptedExecutor(() => ticks));
    const proxy = createServer(async (req, res) => {
      const upstream = await fetch(new URL(req.url!, plain.url), {
        method: "POST",
        headers: { authorization: req.headers.authorization!, "content-type": "application/json" },
        body: await new Response(req as unknown as ReadableStream).text(),
      });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type")! });
      res.end(await upstream.text());
    });
    const proxyUrl = await listen(proxy);
    cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
    const notStreamed = await runTool(tool(proxyUrl, plain.signing), "ticks()");
    expect(notStreamed.preliminary).toEqual([]);
    // All but when the program started, which only a sandbox that streams tells.
    expect(streamed.final).toHaveProperty("startedAt", (streamed.preliminary[0] as { startedAt: number }).startedAt);
    expect(notStreamed.final).not.toHaveProperty("startedAt");
    expect({ ...(streamed.final as object), wallTimeMs: 0, startedAt: 0 }).toEqual({
      ...(notStreamed.final as object),
      wallTimeMs: 0,
      startedAt: 0,
    });
  });

  it("keeps live output within the same limits as the final result", async () => {
    const sandbox = await sandboxWith(
      createScriptedExecutor(() => ({
        chunks: Array.from({ length: 5 }, (_, i) => ({
          stream: "stdout" as const,
          text: `${i}`.repeat(40),
          delayMs: 120,
        })),
      })),
    );
    const { preliminary, final } = await runTool(tool(sandbox.url, sandbox.signing, { maxStdoutChars: 100 }), "x");
    for (const output of preliminary) expect((output as { stdout: string }).stdout.length).toBeLessThanOrEqual(100);
    expect(preliminary.at(-1)).toMatchObject({ truncated: { stdout: expect.any(Number) } });
    // The start and the latest output: the run's last words are kept.
    const keptAtEnd = "0".repeat(40) + "1".repeat(10) + "3".repeat(10) + "4".repeat(40);
    expect(final).toMatchObject({ stdout: keptAtEnd, truncated: { stdout: 100, at: { stdout: 50 } } });
  });

  it("stops the run in the sandbox when the user stops the chat", async () => {
    const ended = deferred();
    const sandbox = await sandboxWith({
      async run({ onOutput, signal }) {
        onOutput?.("stdout", "tick 0\n");
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        ended.resolve();
        return finished("tick 0\n");
      },
      async close() {},
    });
    const stop = new AbortController();
    const outputs: unknown[] = [];
    const run = (async () => {
      for await (const output of tool(sandbox.url, sandbox.signing).execute!(
        { code: "x" },
        { toolCallId: "c", messages: [], abortSignal: stop.signal, context: {} },
      ) as AsyncIterable<unknown>) {
        outputs.push(output);
        stop.abort();
      }
    })();
    await expect(run).rejects.toThrow(/abort/i);
    await ended.promise;
    expect(outputs).toEqual([expect.objectContaining({ status: "running", stdout: "tick 0\n" })]);
  });

  it("tells the model only the final result", async () => {
    const sandbox = await sandboxWith(createScriptedExecutor(() => ticks));
    const executeCode = tool(sandbox.url, sandbox.signing);
    const { final } = await runTool(executeCode, "ticks()");
    const forModel = await executeCode.toModelOutput!({
      toolCallId: "c",
      input: { code: "ticks()" },
      output: final as never,
    });
    expect(forModel).toEqual({ type: "text", value: expect.stringContaining("tick 2") });
  });
});

describe("a flood of output", () => {
  it("goes out whole up to the live budget, then as its latest characters now and then, with what was skipped", () => {
    vi.useFakeTimers();
    const sent: Array<[string, SkippedOutput | undefined]> = [];
    const collected = collectOutput(1000, (_, text, skipped) => sent.push([text, skipped]));
    const printed = Array.from({ length: 100_000 }, (_, i) => `line ${i}\n`);
    for (const line of printed.slice(0, 60_000)) collected.add("stdout", line);
    // The first 1000 characters went out as they were written; nothing since.
    expect(sent.map(([text]) => text).join("")).toBe(printed.join("").slice(0, 1000));
    const whole = sent.length;
    vi.advanceTimersByTime(250);
    for (const line of printed.slice(60_000)) collected.add("stdout", line);
    vi.advanceTimersByTime(250);
    expect(sent.length).toBe(whole + 2);
    // What a reader keeps of the pieces ends where the program is now, with every character counted.
    const reader = new CappedText(1000);
    for (const [text, skipped] of sent) {
      if (skipped) reader.skip(skipped);
      reader.add(text);
    }
    const all = printed.join("");
    expect(reader.text.endsWith("line 99999\n")).toBe(true);
    expect(reader.text.length + reader.cut).toBe(all.length);
    expect(reader.cutLines + reader.text.split("\n").length - 1).toBe(100_000);
    // The result keeps the start and the end, whatever was sent live.
    expect(collected.output().stdout).toBe(keepHeadAndTail(all, 1000).text);
    collected.close();
    collected.add("stdout", "after the end\n");
    vi.advanceTimersByTime(1000);
    expect(sent.length).toBe(whole + 2);
  });

  it("reaches the tool as the program's latest lines, cut and counted", async () => {
    const gate = deferred();
    const sandbox = await sandboxWith({
      async run({ onOutput }) {
        onOutput?.("stdout", "x".repeat(5000));
        onOutput?.("stdout", "line 99999\n", { chars: 700_000, lines: 99_000 });
        await gate.promise;
        return finished("done\n");
      },
      async close() {},
    });
    const outputs: unknown[] = [];
    for await (const output of tool(sandbox.url, sandbox.signing, { maxStdoutChars: 100 }).execute!(
      { code: "x" },
      { toolCallId: "c", messages: [], abortSignal: new AbortController().signal, context: {} },
    ) as AsyncIterable<{ stdout?: string }>) {
      outputs.push(output);
      if (output.stdout?.endsWith("line 99999\n")) gate.resolve();
    }
    expect(outputs).toContainEqual(
      expect.objectContaining({
        status: "running",
        stdout: `${"x".repeat(50)}line 99999\n`,
        truncated: expect.objectContaining({ stdout: 5000 - 50 + 700_000, lines: { stdout: 99_000 } }),
      }),
    );
  });
});

describe("throttleLatest", () => {
  it("passes the first item at once, then the latest at most once per interval, and never drops the last", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    async function* source() {
      for (let i = 1; i <= 10; i++) {
        yield i;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    }
    const seen: Array<{ item: number; at: number }> = [];
    const done = (async () => {
      for await (const item of throttleLatest(source(), 100)) seen.push({ item, at: performance.now() });
    })();
    await vi.runAllTimersAsync();
    await done;
    expect(seen[0]).toEqual({ item: 1, at: 0 });
    expect(seen.at(-1)!.item).toBe(10);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(100);
    expect(seen.length).toBeLessThanOrEqual(5);
  });

  it("lets an urgent item through at once, in place of one held back", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    async function* source() {
      yield "a";
      yield "b";
      yield "done";
    }
    const seen: string[] = [];
    const done = (async () => {
      for await (const item of throttleLatest(source(), 100, (i) => i === "done")) seen.push(item);
    })();
    await vi.runAllTimersAsync();
    await done;
    expect(seen).toEqual(["a", "done"]);
  });
});
