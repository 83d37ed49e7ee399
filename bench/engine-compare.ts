// The CPython engine of this checkout against another one's, in one run, so
// that a change is measured as a ratio on a machine others share:
//   git worktree add /tmp/baseline <commit>
//   ln -s "$PWD/node_modules" /tmp/baseline/node_modules
//   BENCH_BASELINE=/tmp/baseline npm exec -- tsx bench/engine-compare.ts
// Each engine runs, in turn and twice over: `print(1)` one at a time with a
// pause between runs, a small plot saved as a PNG, and 40 one-line runs 4 at
// a time; for both ways of making a run's process.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createCpythonExecutor } from "../src/harness/index.js";
import type { Executor } from "../src/harness/sandbox/executor.js";

type Make = (options: { runProcess: "clone" | "fork-twice" }) => Executor;

const baselineDir = process.env.BENCH_BASELINE;
if (!baselineDir) throw new Error("Set BENCH_BASELINE to the checkout to compare with (see the top of this file).");
const baseline = (await import(pathToFileURL(resolve(baselineDir, "src/harness/index.ts")).href)) as {
  createCpythonExecutor: Make;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

async function figures(executor: Executor) {
  const signal = new AbortController().signal;
  const run = (code: string) => executor.run({ code, timeoutMs: 60_000, signal });
  await run("print(0)");
  const timed = async (code: string, times: number, pauseMs: number) => {
    const values: number[] = [];
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      await run(code);
      values.push(performance.now() - start);
      await new Promise((done) => setTimeout(done, pauseMs));
    }
    return median(values);
  };
  const print = await timed("print(1)", 21, 150);
  const plot = await timed("import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.savefig('plot.png')", 7, 150);
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

console.log(`Load average at the start: ${load()}.`);
const rows: string[] = [];
for (let round = 1; round <= 2; round++)
  for (const [name, make] of [
    ["baseline", baseline.createCpythonExecutor],
    ["this checkout", createCpythonExecutor as Make],
  ] as const)
    for (const runProcess of ["clone", "fork-twice"] as const) {
      const { print, plot, perSecond } = await figures(make({ runProcess }));
      rows.push(
        `| ${round} | ${name} | ${runProcess} | ${print.toFixed(0)} ms | ${plot.toFixed(0)} ms | ${perSecond.toFixed(1)} |`,
      );
    }
console.log(`Load average at the end: ${load()}.\n`);
console.log("| round | engine | run process | `print(1)` | small plot | one-line runs a second, 4 at a time |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
