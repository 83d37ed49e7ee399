// What is inside the long tasks of a trace that `BENCH_TRACE_DIR=… npm run bench`
// kept: `npx tsx bench/long-tasks.ts <trace.json> [threshold ms, default 50] [--cpu]`.
// With --cpu a task counts by its thread (CPU) time instead of its wall time:
// on a shared machine, wall time also holds the time the thread waited for a core.
// For each main-thread task over the threshold: when it ran, how long, what
// Chromium says it did (script, layout, style, paint, GC), and which
// functions the sampling profiler caught inside it (self time).
import { readFileSync } from "node:fs";

type Event = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> } & Record<string, unknown>;
};
type ProfileNode = {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};

const args = process.argv.slice(2);
const byCpu = args.includes("--cpu");
const [file, thresholdArg] = args.filter((a) => a !== "--cpu");
if (!file) throw new Error("usage: tsx bench/long-tasks.ts <trace.json> [threshold ms]");
const threshold = Number(thresholdArg ?? 50);
const events = (JSON.parse(readFileSync(file, "utf8")) as { traceEvents: Event[] }).traceEvents;

const mainThreads = new Set(
  events
    .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
    .map((e) => `${e.pid}:${e.tid}`),
);
const taskName = events.some((e) => e.name === "ThreadControllerImpl::RunTask")
  ? "ThreadControllerImpl::RunTask"
  : "RunTask";
const byThread = new Map<string, Event[]>();
for (const e of events) {
  if (e.ph !== "X" || e.name !== taskName || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
  const key = `${e.pid}:${e.tid}`;
  byThread.set(key, [...(byThread.get(key) ?? []), e]);
}
const busiest = [...byThread.entries()].sort(
  (a, b) => b[1].reduce((s, e) => s + (e.dur ?? 0), 0) - a[1].reduce((s, e) => s + (e.dur ?? 0), 0),
)[0];
if (!busiest) throw new Error("no main-thread tasks in this trace");
const [threadKey, tasks] = busiest;
const origin = Math.min(...tasks.map((t) => t.ts));
const onThread = events.filter((e) => `${e.pid}:${e.tid}` === threadKey && e.ph === "X");

// Samples of the sampling profiler on this thread: [time, node id].
const nodes = new Map<number, ProfileNode>();
const samples: Array<[number, number]> = [];
const profiles = new Map<string, number>();
for (const e of events) {
  if (e.name === "Profile" && `${e.pid}:${e.tid}` === threadKey)
    profiles.set(e.id ?? "", (e.args?.data?.startTime as number) ?? e.ts);
}
const clock = new Map(profiles);
for (const e of events) {
  if (e.name !== "ProfileChunk" || !profiles.has(e.id ?? "")) continue;
  const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
  for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
  let t = clock.get(e.id ?? "")!;
  (data.cpuProfile?.samples ?? []).forEach((sample, i) => {
    t += data.timeDeltas?.[i] ?? 0;
    samples.push([t, sample]);
  });
  clock.set(e.id ?? "", t);
}

const where = (url: string | undefined) => (url ?? "").replace(/^.*\//, "") || "(native)";
const label = (e: Event) => {
  const data = e.args?.data as { functionName?: string; url?: string; type?: string } | undefined;
  if (e.name === "FunctionCall") return `FunctionCall ${data?.functionName || "(anonymous)"} ${where(data?.url ?? "")}`;
  if (e.name === "EvaluateScript" || e.name === "v8.compileModule" || e.name === "v8.evaluateModule")
    return `${e.name} ${where(data?.url ?? String(e.args?.fileName ?? ""))}`;
  if (e.name === "EventDispatch" || e.name === "TimerFire") return `${e.name} ${data?.type ?? ""}`;
  return e.name;
};

// AFTER=last-delta:300 lists every task of the 300 ms after the page's performance.mark("last-delta").
if (process.env.AFTER) {
  const [mark, span] = process.env.AFTER.split(":");
  const at = events.find((e) => e.name === mark && e.ph !== "M")?.ts;
  if (at === undefined) throw new Error(`no mark ${mark}`);
  const until = at + Number(span ?? 300) * 1000;
  // Worker threads of the same renderer, marked with a W.
  const workers = new Set(
    events
      .filter(
        (e) =>
          e.ph === "M" &&
          e.name === "thread_name" &&
          String(e.args?.name ?? "").includes("Worker") &&
          `${e.pid}` === threadKey.split(":")[0],
      )
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const workerTasks = events.filter((e) => e.ph === "X" && e.name === taskName && workers.has(`${e.pid}:${e.tid}`));
  const all = [...tasks.map((t) => ({ t, on: "main" })), ...workerTasks.map((t) => ({ t, on: "W" }))].sort(
    (a, b) => a.t.ts - b.t.ts,
  );
  for (const { t: task, on } of all.filter(
    ({ t }) => t.ts + (t.dur ?? 0) >= at && t.ts <= until && (t.dur ?? 0) >= 1000,
  )) {
    const thread = `${task.pid}:${task.tid}`;
    const inner = events.filter(
      (e) =>
        e !== task &&
        e.ph === "X" &&
        `${e.pid}:${e.tid}` === thread &&
        e.ts >= task.ts &&
        e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0) &&
        (e.dur ?? 0) >= 500,
    );
    const names = [...new Set(inner.map(label))].slice(0, 6).join(" · ");
    console.log(
      `${on.padEnd(4)} ${((task.ts - at) / 1000).toFixed(1).padStart(7)} ms  ${((task.dur ?? 0) / 1000).toFixed(1).padStart(6)} wall ${((task.tdur ?? 0) / 1000).toFixed(1).padStart(6)} CPU  ${names}`,
    );
  }
  process.exit(0);
}

const length = (t: Event) => ((byCpu ? t.tdur : t.dur) ?? 0) / 1000;
const long = tasks.filter((t) => length(t) >= threshold);
console.log(
  `${file}: ${tasks.length} tasks, ${long.length} of ${threshold} ms or more ${byCpu ? "CPU" : "wall"} time, longest ${Math.max(...tasks.map(length)).toFixed(1)} ms; ` +
    `busy ${(tasks.reduce((s, t) => s + (t.dur ?? 0), 0) / 1000).toFixed(0)} ms wall, ${(tasks.reduce((s, t) => s + (t.tdur ?? 0), 0) / 1000).toFixed(0)} ms CPU`,
);
for (const task of long) {
  const end = task.ts + (task.dur ?? 0);
  console.log(
    `\n— task at ${((task.ts - origin) / 1000).toFixed(0)} ms, ${((task.dur ?? 0) / 1000).toFixed(1)} ms wall, ${((task.tdur ?? 0) / 1000).toFixed(1)} ms CPU`,
  );
  // The task's inner events, two levels down, as Chromium names them.
  const inner = onThread.filter(
    (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 1000,
  );
  const totals = new Map<string, number>();
  for (const e of inner) totals.set(label(e), (totals.get(label(e)) ?? 0) + (e.dur ?? 0) / 1000);
  for (const [name, total] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`   ${total.toFixed(1).padStart(7)} ms  ${name}`);
  // Self time by function, from the samples inside the task.
  const self = new Map<string, number>();
  let count = 0;
  for (const [t, id] of samples) {
    if (t < task.ts || t > end) continue;
    const frame = nodes.get(id)?.callFrame;
    const key = frame ? `${frame.functionName || "(anonymous)"} ${where(frame.url)}:${frame.lineNumber + 1}` : "?";
    self.set(key, (self.get(key) ?? 0) + 1);
    count++;
  }
  if (count) {
    console.log(`   samples (${count}), self:`);
    for (const [name, n] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`   ${((100 * n) / count).toFixed(0).padStart(5)} %  ${name}`);
  }
  if (count && process.env.INCLUSIVE) {
    // Inclusive time of named functions: each sample counts once for every function on its stack.
    const total = new Map<string, number>();
    for (const [t, id] of samples) {
      if (t < task.ts || t > end) continue;
      const seen = new Set<string>();
      for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
        const name = node.callFrame.functionName;
        if (!name || seen.has(name)) continue;
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + 1);
      }
    }
    console.log(`   inclusive:`);
    for (const [name, n] of [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.INCLUSIVE)))
      console.log(`   ${((100 * n) / count).toFixed(0).padStart(5)} %  ${name}`);
  }
}
