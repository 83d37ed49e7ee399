// A minimal /api/chat client for the server-side benchmarks: one "browser"
// with its own cookie, reading the UI message stream's SSE chunks.
import { readLines } from "../src/server/codeapi/sandbox-stream.ts";

export interface ChatTiming {
  /** Request sent → the tool's input is complete (the model's part). */
  toInputMs: number | null;
  /** Tool input complete → tool output arrived (token, sandbox, Python). */
  toolMs: number | null;
  /** Request sent → stream ended. */
  totalMs: number;
  output: unknown;
}

export function chatClient(baseUrl: string) {
  let cookie = "";
  return async function send(text: string): Promise<ChatTiming> {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      // Each message opens a chat of its own, as a new conversation in the demo does.
      body: JSON.stringify({
        id: `bench-${crypto.randomUUID()}`,
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
      }),
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) cookie = setCookie.split(";")[0]!;
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    let inputAt: number | null = null;
    let outputAt: number | null = null;
    let output: unknown;
    for await (const line of readLines(response.body)) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const chunk = JSON.parse(line.slice(6)) as { type: string; output?: unknown; preliminary?: boolean };
      if (chunk.type === "tool-input-available") inputAt ??= performance.now();
      // The final result; live output may come before it.
      if (chunk.type === "tool-output-available" && !chunk.preliminary) {
        outputAt ??= performance.now();
        output = chunk.output;
      }
    }
    return {
      toInputMs: inputAt === null ? null : inputAt - started,
      toolMs: inputAt === null || outputAt === null ? null : outputAt - inputAt,
      totalMs: performance.now() - started,
      output,
    };
  };
}
