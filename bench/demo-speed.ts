// How fast the demo runs print(1): the first run right after the harness
// starts (cold) and later runs (warm), through POST /api/chat with the
// demo's own settings.
import { createPyodideExecutor, startHarness, type PyodideExecutorOptions } from "../src/harness";
import { chatClient } from "./chat-client.ts";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function demoSpeed(executorOptions: PyodideExecutorOptions = {}, warmRuns = 10) {
  const started = performance.now();
  const harness = await startHarness({
    port: 0,
    rateLimit: { max: 1_000_000, windowMs: 1000 },
    executor: createPyodideExecutor({ onWarning: () => undefined, ...executorOptions }),
  });
  const listeningMs = performance.now() - started;
  const send = chatClient(harness.url);
  const prompt = "```python\nprint(1)\n```";
  const cold = await send(prompt);
  const warm = [];
  for (let i = 0; i < warmRuns; i++) warm.push(await send(prompt));
  await harness.close();
  const ok = [cold, ...warm].every((r) => (r.output as { stdout?: string } | undefined)?.stdout === "1\n");
  return {
    ok,
    listeningMs,
    cold: { toolMs: cold.toolMs!, totalMs: cold.totalMs },
    warm: { toolMs: median(warm.map((r) => r.toolMs!)), totalMs: median(warm.map((r) => r.totalMs)) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await demoSpeed(), null, 2));
  process.exit(0);
}
