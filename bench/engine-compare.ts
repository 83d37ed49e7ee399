// The CPython engine of this checkout against another one's, in one run, so
// that a change is measured as a ratio on a machine others share:
//   git worktree add /tmp/baseline <commit>
//   ln -s "$PWD/node_modules" /tmp/baseline/node_modules
//   BENCH_BASELINE=/tmp/baseline npm exec -- tsx bench/engine-compare.ts
// Each engine runs, in turn and twice over, the figures `npm run bench` takes
// (engine-figures.ts), for both ways of making a run's process.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createCpythonExecutor } from "../src/sandbox/index.js";
import type { Executor } from "../src/sandbox/executor.js";
import { engineFigures } from "./engine-figures.ts";

type Make = (options: { runProcess: "clone" | "fork-twice" }) => Executor;

const baselineDir = process.env.BENCH_BASELINE;
if (!baselineDir) throw new Error("Set BENCH_BASELINE to the checkout to compare with (see the top of this file).");
// Where the engine is in the baseline: src/sandbox/cpython/ since the sandbox became a module of its own.
const baselineEngine = ["src/sandbox/cpython/cpython-executor.ts", "src/harness/sandbox/cpython-executor.ts"]
  .map((file) => resolve(baselineDir, file))
  .find((file) => existsSync(file));
if (!baselineEngine) throw new Error(`No CPython engine in ${baselineDir}.`);
const baseline = (await import(pathToFileURL(baselineEngine).href)) as {
  createCpythonExecutor: Make;
};

const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

console.log(`Load average at the start: ${load()}.`);
const rows: string[] = [];
for (let round = 1; round <= 2; round++)
  for (const [name, make] of [
    ["baseline", baseline.createCpythonExecutor],
    ["this checkout", createCpythonExecutor as Make],
  ] as const)
    for (const runProcess of ["clone", "fork-twice"] as const) {
      const { print, plot, perSecond } = await engineFigures(make({ runProcess }), true);
      rows.push(
        `| ${round} | ${name} | ${runProcess} | ${print.toFixed(0)} ms | ${plot!.toFixed(0)} ms | ${perSecond.toFixed(1)} |`,
      );
    }
console.log(`Load average at the end: ${load()}.\n`);
console.log("| round | engine | run process | `print(1)` | small plot | one-line runs a second, 4 at a time |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
