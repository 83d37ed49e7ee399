// One sandbox engine's run times through its executor, for bench/run.ts and
// bench/engine-compare.ts.
import type { Executor } from "../src/sandbox/executor.js";
import { median } from "./median.ts";

/** One engine's run times, through the executor alone (the sandbox's HTTP and the server tool add their own overhead). */
export async function engineFigures(executor: Executor, plots: boolean) {
  const signal = new AbortController().signal;
  const run = (code: string) => executor.run({ code, timeoutMs: 60_000, signal });
  await run("print(0)"); // started: the warm parent, or the Pyodide snapshot
  const timed = async (code: string, times: number) => {
    const values: number[] = [];
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      await run(code);
      values.push(performance.now() - start);
      // Pyodide's pool refills between runs, as it does between a student's messages.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return median(values);
  };
  const print = await timed("print(1)", 15);
  const plot = plots
    ? await timed(
        "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title('squares')\nplt.savefig('plot.png')",
        9,
      )
    : null;
  const start = performance.now();
  const queue = Array.from({ length: 40 }, (_, n) => `print(${n})`);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let code = queue.shift(); code; code = queue.shift()) await run(code);
    }),
  );
  const perSecond = 40 / ((performance.now() - start) / 1000);
  await executor.close();
  return { print, plot, perSecond };
}
