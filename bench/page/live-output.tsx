// Scenario 8: a megabyte of output streamed into a running card in a real
// assistant-ui thread, as the server tool sends it: the output so far, about
// ten times a second, for ten seconds.
import type { ThreadMessageLike } from "@assistant-ui/react";
import { useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { StoreThreadView } from "./thread-view";
import { frame, sleep } from "./timing";

const LINES = 10_000;
const CHUNKS = 100;
const INTERVAL_MS = 100;

/** Line `n`: a fixed-width number to find it by, every tenth in colour, about 100 characters in all. */
const line = (n: number) => {
  const text = `line ${String(n).padStart(6, "0")} ${"x".repeat(84)}`;
  return n % 10 === 0 ? `\x1b[32m${text}\x1b[0m` : text;
};

let chunks: string[] = [];
let update: (stdout: string) => void = () => undefined;
let container: HTMLElement | null = null;

/**
 * Builds the output and mounts the thread with the running call, before the
 * trace starts: the runtime's own mount is measured in scenario 7.
 */
export async function prepareLiveOutput() {
  const perChunk = LINES / CHUNKS;
  chunks = Array.from({ length: CHUNKS }, (_, c) =>
    Array.from({ length: perChunk }, (_, i) => `${line(c * perChunk + i + 1)}\n`).join(""),
  );
  function Thread() {
    const [stdout, setStdout] = useState<string | null>(null);
    update = setStdout;
    const messages = useMemo<ThreadMessageLike[]>(
      () => [
        { id: "u", role: "user", content: [{ type: "text", text: "Print ten thousand lines, slowly." }] },
        {
          id: "a",
          role: "assistant",
          content: [
            {
              type: "tool-call",
              toolCallId: "live",
              toolName: "execute_code",
              args: { code: "for n in range(10_000): print(n)" },
              argsText: JSON.stringify({ code: "for n in range(10_000): print(n)" }),
              ...(stdout === null
                ? {}
                : { result: { status: "running", stdout, stderr: "", truncated: { stdout: 0, stderr: 0 } } }),
            },
          ],
        },
      ],
      [stdout],
    );
    return <StoreThreadView messages={messages} />;
  }
  container = document.createElement("div");
  document.body.append(container);
  createRoot(container).render(<Thread />);
  await sleep(1000);
}

/** Streams the output in; the trace around it gives the main-thread tasks. */
export async function liveOutput() {
  const pane = () => container!.querySelector("[data-slot=execute-code-stdout] pre");
  const latencies: number[] = [];
  let maxNodes = 0;
  let stdout = "";
  for (let c = 0; c < chunks.length; c++) {
    const sentAt = performance.now();
    stdout += chunks[c];
    update(stdout);
    // On screen: the first frame whose DOM holds the chunk's last line.
    const marker = `line ${String(((c + 1) * LINES) / CHUNKS).padStart(6, "0")}`;
    for (let shown = false; !shown; ) {
      const at = await frame();
      shown = pane()?.textContent?.includes(marker) ?? false;
      if (shown) latencies.push(at - sentAt);
      if (at - sentAt > 5000) throw new Error(`chunk ${c} never showed`);
    }
    const card = container!.querySelector("[data-slot=execute-code]");
    maxNodes = Math.max(maxNodes, card?.querySelectorAll("*").length ?? 0);
    await sleep(Math.max(0, sentAt + INTERVAL_MS - performance.now()));
  }
  latencies.sort((a, b) => a - b);
  return {
    p95ChunkToScreenMs: latencies[Math.floor(latencies.length * 0.95)]!,
    maxDomNodes: maxNodes,
    followedToEnd: (() => {
      const body = pane() as HTMLElement | null;
      return !!body && body.scrollTop + body.clientHeight >= body.scrollHeight - 4;
    })(),
  };
}
