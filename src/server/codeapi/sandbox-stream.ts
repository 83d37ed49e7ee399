import { CappedText, skippedOutput } from "../../contract/truncate.js";
import { readSandboxResponse, resultFromAnswer } from "./sandbox-client.js";
import { outputSoFar, sandboxError, type OutputLimits, type SandboxEvent } from "../sandbox.js";
import { createLineSplitter } from "../line-splitter.js";

/** The non-empty lines of a streamed body, as they arrive, in time linear in its length however long a line is. */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines: string[] = [];
  const splitter = createLineSplitter((line) => lines.push(line));
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      splitter.push(decoder.decode(read.value, { stream: true }));
      for (const line of lines.splice(0)) if (line.trim()) yield line;
    }
    splitter.push(`${decoder.decode()}\n`);
    for (const line of lines.splice(0)) if (line.trim()) yield line;
  } finally {
    // A reader that stops early (the result came, or the run was stopped) lets the connection go.
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads a sandbox's NDJSON answer: `{"type":"queued"}` when the program
 * waits for a free slot, `{"type":"started"}` when it starts,
 * `{"type":"output","stream","text"}` lines while it runs (past a flood's
 * start, with `"skipped":{"chars","lines"}` left out before `text`), then `{"type":"result", …flat answer}`,
 * or `{"type":"refused","status", …the plain answer's body}` where the run was refused or lost after the stream began. The output
 * so far stays within the same limits as a final result.
 */
export async function* readSandboxStream(response: Response, limits: OutputLimits): AsyncGenerator<SandboxEvent> {
  const stdout = new CappedText(limits.stdout);
  const stderr = new CappedText(limits.stderr);
  if (!response.body) {
    yield { kind: "done", outcome: sandboxError("malformed_response", "The code runner's stream had no body.") };
    return;
  }
  for await (const line of readLines(response.body)) {
    let event: {
      type?: unknown;
      stream?: unknown;
      text?: unknown;
      skipped?: unknown;
      time_limit_ms?: unknown;
      status?: unknown;
    };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      yield {
        kind: "done",
        outcome: sandboxError(
          "malformed_response",
          `The code runner sent a line that is not JSON: ${line.slice(0, 200)}`,
        ),
      };
      return;
    }
    if (event.type === "result") {
      yield { kind: "done", outcome: resultFromAnswer(event, line, limits) };
      return;
    }
    if (event.type === "refused" && typeof event.status === "number" && event.status >= 400 && event.status <= 599) {
      // Pushed out of a full queue, or lost by the engine, after the stream began: said as the plain answer would be.
      const { type: _type, status, ...body } = event;
      yield {
        kind: "done",
        outcome: await readSandboxResponse(new Response(JSON.stringify(body), { status }), limits),
      };
      return;
    }
    if (event.type === "queued") {
      yield { kind: "queued" };
      continue;
    }
    if (event.type === "started") {
      const limit = event.time_limit_ms;
      yield typeof limit === "number" && Number.isFinite(limit) && limit > 0
        ? { kind: "started", timeLimitMs: limit }
        : { kind: "started" };
      continue;
    }
    if (
      event.type === "output" &&
      typeof event.text === "string" &&
      (event.stream === "stdout" || event.stream === "stderr")
    ) {
      const kept = event.stream === "stdout" ? stdout : stderr;
      const skipped = skippedOutput(event.skipped);
      if (skipped) kept.skip(skipped);
      kept.add(event.text);
      yield outputSoFar(stdout, stderr);
    }
    // Other event types are for other clients: skipped.
  }
  yield {
    kind: "done",
    outcome: sandboxError(
      "stream_ended",
      "The code runner stopped answering in the middle of the run. The program may or may not have finished; run it again to see its output.",
    ),
  };
}
