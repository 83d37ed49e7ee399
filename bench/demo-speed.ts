// How fast the demo runs print(1): the first run right after the harness
// starts (cold) and later runs (warm), through POST /api/chat with the
// demo's own settings.
import { createPyodideExecutor, type PyodideExecutorOptions } from "../src/sandbox";
import { startHarness } from "../src/harness";
import { chatClient } from "./chat-client.ts";
import { median } from "./median.ts";

export async function demoSpeed(executorOptions: PyodideExecutorOptions = {}, warmRuns = 10) {
  const started = performance.now();
  const harness = await startHarness({
    port: 0,
    database: ":memory:",
    rateLimit: { max: 1_000_000, windowMs: 1000 },
    chatRateLimit: { max: 1_000_000, windowMs: 1000 },
    executor: createPyodideExecutor({ onWarning: () => undefined, ...executorOptions }),
  });
  const listeningMs = performance.now() - started;
  const timings = await measureTurns(harness.url, warmRuns);
  await harness.close();
  return { listeningMs, ...timings };
}

/** Turns against a harness: the first (cold when the harness has just started), then the median of the rest. */
export async function measureTurns(url: string, warmRuns = 10, gapMs = 0) {
  const send = chatClient(url);
  const prompt = "```python\nprint(1)\n```";
  const cold = await send(prompt);
  const warm = [];
  for (let i = 0; i < warmRuns; i++) {
    await new Promise((resolve) => setTimeout(resolve, gapMs));
    warm.push(await send(prompt));
  }
  const ok = [cold, ...warm].every((r) => (r.output as { stdout?: string } | undefined)?.stdout === "1\n");
  return {
    ok,
    cold: { toolMs: cold.toolMs!, totalMs: cold.totalMs },
    warm: { toolMs: median(warm.map((r) => r.toolMs!)), totalMs: median(warm.map((r) => r.totalMs)) },
  };
}

// `npx tsx bench/demo-speed.ts` starts a harness of its own; given a URL (and
// a pause between turns in ms), it measures one already running, for
// comparing two builds side by side.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, gap] = process.argv.slice(2);
  console.log(JSON.stringify(url ? await measureTurns(url, 10, Number(gap ?? 0)) : await demoSpeed(), null, 2));
  process.exit(0);
}
