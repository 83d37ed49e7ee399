// `npm run bench`: measures the kit against a naive baseline in headless
// Chromium on a production build, plus bundle sizes and the server side.
// Prints one table; every figure is the median of several runs.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { generateKeyPair } from "jose";
import { chromium, type Browser, type Page } from "playwright";
import { build, type Rolldown } from "vite";
import { createMockSandbox, createPyodideExecutor, createScriptedExecutor } from "../src/harness";
import { createStaticHandler } from "../src/harness/static-files";
import { buildExecuteCodeTool } from "../src/server";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.ts";
import { demoSpeed } from "./demo-speed.ts";
import { soak } from "./soak.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (n: number | null) => (n === null ? "—" : `${n.toFixed(n < 10 ? 2 : 0)} ms`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } };

/** Longest task and total busy time of the page's main thread, from a Chromium trace. */
function mainThreadTasks(trace: Buffer): { longestMs: number; totalMs: number } {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  // Newer Chromium names its top-level tasks ThreadControllerImpl::RunTask, with RunTask nested inside.
  const taskName = events.some((e) => e.name === "ThreadControllerImpl::RunTask") ? "ThreadControllerImpl::RunTask" : "RunTask";
  const byThread = new Map<string, number[]>();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== taskName) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!mainThreads.has(key)) continue;
    byThread.set(key, [...(byThread.get(key) ?? []), (e.dur ?? 0) / 1000]);
  }
  // The page's renderer is the busiest one.
  const tasks = [...byThread.values()].sort((a, b) => b.reduce((s, d) => s + d, 0) - a.reduce((s, d) => s + d, 0))[0] ?? [0];
  return { longestMs: Math.max(...tasks), totalMs: tasks.reduce((s, d) => s + d, 0) };
}

async function traced<T>(browser: Browser, page: Page, run: () => Promise<T>) {
  await browser.startTracing(page, { categories: ["toplevel", "disabled-by-default-devtools.timeline"] });
  const result = await run();
  const trace = await browser.stopTracing();
  return { result, ...mainThreadTasks(trace) };
}

async function serveBenchPage(): Promise<{ url: string; close: () => void }> {
  execFileSync("npx", ["vite", "build", "--config", "vite.bench.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  const serve = createStaticHandler("dist-bench");
  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

async function browserFigures(url: string) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const fresh = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.title === "ready");
    return { page, close: () => context.close() };
  };
  const evaluate = <T>(page: Page, script: string) => page.evaluate(script) as Promise<T>;

  const kinds = ["kit", "naive", "shiki"] as const;
  const streaming = Object.fromEntries(
    kinds.map((kind) => [kind, { longest: [] as number[], total: [] as number[], final: [] as number[], tokenize: [] as number[], oneShot: [] as number[], shikiOneShot: [] as number[], identical: [] as boolean[] }]),
  ) as Record<(typeof kinds)[number], { longest: number[]; total: number[]; final: number[]; tokenize: number[]; oneShot: number[]; shikiOneShot: number[]; identical: boolean[] }>;
  for (let i = 0; i < RUNS; i++) {
    for (const kind of kinds) {
      const { page, close } = await fresh();
      await evaluate(page, `bench.prepareStream("${kind}")`);
      const run = await traced(browser, page, () =>
        evaluate<{ finalHighlightMs: number | null; tokenizeMs: number }>(page, "bench.stream()"),
      );
      const check = await evaluate<{ identical: boolean; oneShotMs: number; shikiOneShotMs: number | null }>(page, "bench.checkStream()");
      const s = streaming[kind];
      s.longest.push(run.longestMs);
      s.total.push(run.totalMs);
      s.final.push(run.result.finalHighlightMs ?? Number.NaN);
      s.tokenize.push(run.result.tokenizeMs);
      s.oneShot.push(check.oneShotMs);
      if (check.shikiOneShotMs !== null) s.shikiOneShot.push(check.shikiOneShotMs);
      s.identical.push(check.identical);
      await close();
    }
  }

  const firstPaint = { text: [] as Array<number | null>, highlight: [] as number[] };
  const largeOutput = { paint: [] as number[], longest: [] as number[], nodes: [] as number[] };
  const thread = { renders: [] as number[], cards: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    {
      const { page, close } = await fresh();
      const r = await evaluate<{ codeTextMs: number | null; highlightMs: number }>(page, "bench.firstPaint()");
      firstPaint.text.push(r.codeTextMs);
      firstPaint.highlight.push(r.highlightMs);
      await close();
    }
    {
      const { page, close } = await fresh();
      await evaluate(page, "bench.prepareLargeOutput()");
      const run = await traced(browser, page, () => evaluate<{ firstPaintMs: number; domNodes: number }>(page, "bench.largeOutput()"));
      largeOutput.paint.push(run.result.firstPaintMs);
      largeOutput.longest.push(run.longestMs);
      largeOutput.nodes.push(run.result.domNodes);
      await close();
    }
    {
      const { page, close } = await fresh();
      const r = await evaluate<{ cards: number; finishedRenders: number }>(page, "bench.thread()");
      thread.renders.push(r.finishedRenders);
      thread.cards.push(r.cards);
      await close();
    }
  }
  await browser.close();
  return { streaming, firstPaint, largeOutput, thread };
}

async function bundleChunks(external: (id: string) => boolean) {
  const output = (await build({
    configFile: false,
    logLevel: "silent",
    build: { write: false, lib: { entry: "src/index.ts", formats: ["es"] }, rolldownOptions: { external } },
  })) as Rolldown.RolldownOutput[];
  return output.flatMap((o) => o.output).filter((c): c is Rolldown.OutputChunk => c.type === "chunk");
}

/** The entry chunk and every chunk it imports statically: what a page loads with the kit. */
function eagerChunks(chunks: Rolldown.OutputChunk[]) {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const eager = new Set<Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (eager.has(chunk)) return;
    eager.add(chunk);
    for (const name of chunk.imports) if (byName.has(name)) visit(byName.get(name)!);
  };
  visit(chunks.find((c) => c.isEntry)!);
  return [...eager];
}

/**
 * Gzipped sizes: the browser entry with its dependencies but without React
 * and assistant-ui, the kit's own code alone, and the lazy highlighter chunk.
 */
async function bundleSizes() {
  const size = (c: Rolldown.OutputChunk) => gzipSync(c.code).length;
  const total = (cs: Rolldown.OutputChunk[]) => cs.reduce((sum, c) => sum + size(c), 0);
  const chunks = await bundleChunks((id) => /^(react|react-dom|@assistant-ui\/react)(\/|$)/.test(id));
  const own = await bundleChunks((id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"));
  const highlighter = chunks.find((c) => c.name.includes("python-tokenizer"));
  const wasm = chunks.some((c) => /WebAssembly\.instantiate|onig\.wasm/.test(c.code));
  return {
    entry: total(eagerChunks(chunks)),
    ownEntry: total(eagerChunks(own)),
    highlighter: highlighter ? size(highlighter) : 0,
    wasm,
  };
}

async function serverFigures() {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA");
  const sandbox = createMockSandbox({
    publicKey,
    algorithms: ["EdDSA"],
    issuer: "bench",
    audience: "sandbox",
    executor: createScriptedExecutor(() => ({ stdout: "1\n", wallTimeMs: 0 })),
    rateLimit: { max: 1_000_000, windowMs: 1000 },
  });
  const server = createServer((req, res) => void sandbox.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const tool = buildExecuteCodeTool({
    sandboxUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signing: { privateKey, algorithm: "EdDSA", issuer: "bench", audience: "sandbox" },
    participantId: "p",
    tenantId: "t",
  });
  const call = async () => {
    let last: unknown;
    for await (const output of tool.execute!({ code: "print(1)" }, { toolCallId: "c", messages: [], context: {} }) as AsyncIterable<unknown>) last = output;
    return last;
  };
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    await call();
    if (i >= 50) times.push(performance.now() - start);
  }
  server.close();

  // Each run gets a fresh interpreter process. "Pooled": one started ahead is
  // waiting (the pool refills between runs); "back to back": each run waits
  // for the one started when the previous run took its interpreter.
  const pyodide = createPyodideExecutor({ poolSize: 1, onWarning: () => undefined });
  const signal = new AbortController().signal;
  await pyodide.run({ code: "print(0)", timeoutMs: 60_000, signal }); // waits for the snapshot
  const poolReady = async () => {
    while ((pyodide.health!().pool as { ready: number }).ready < 1) await new Promise((r) => setTimeout(r, 20));
  };
  const pooled: number[] = [];
  for (let i = 0; i < 15; i++) {
    await poolReady();
    const start = performance.now();
    await pyodide.run({ code: "print(1)", timeoutMs: 10_000, signal });
    pooled.push(performance.now() - start);
  }
  await poolReady();
  const backToBack: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    await pyodide.run({ code: "print(1)", timeoutMs: 10_000, signal });
    backToBack.push(performance.now() - start);
  }
  await pyodide.close();
  // A cold start that makes the snapshot, as on a machine's first start.
  const cold = createPyodideExecutor({ poolSize: 1, snapshotCacheDir: false, onWarning: () => undefined });
  const coldStart = performance.now();
  await cold.run({ code: "print(1)", timeoutMs: 60_000, signal });
  const coldFirstRun = performance.now() - coldStart;
  const snapshotMs = (cold.health!().snapshot as { madeInMs: number }).madeInMs;
  await cold.close();
  return {
    toolOverhead: median(times),
    pyodidePrint: median(pooled),
    pyodideBackToBack: median(backToBack),
    coldFirstRun,
    snapshotMs,
  };
}

// BENCH_ONLY=browser,bundle,server,demo,soak picks sections (default: all).
const only = new Set((process.env.BENCH_ONLY ?? "browser,bundle,server,demo,soak").split(",").map((x) => x.trim()));
const lines: string[] = [];
const row = (area: string, figure: string, kit: string, baseline: string, ratio: string, budget: string, holds: boolean | null) =>
  `| ${area} | ${figure} | ${kit} | ${baseline} | ${ratio} | ${budget} | ${holds === null ? "" : holds ? "yes" : "**no**"} |`;
const ratio = (a: number, b2: number) => `${(b2 / a).toFixed(1)}×`;

if (only.has("browser") || only.has("bundle") || only.has("server")) {
  const baselines =
    "the naive baseline calls shiki's `codeToHtml` (JavaScript regex engine, stock Python grammar) on every delta and sets the HTML, as common chat kits do; the same-tokenizer row re-highlights the whole program with the kit's own tokenizer on every delta";
  lines.push(
    `Runs per figure: ${RUNS} (median). ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${execFileSync(chromiumPath, ["--version"]).toString().trim()}.`,
    "",
    `Baselines — ${baselines}.`,
    "",
    "| area | figure | kit | naive baseline | baseline ÷ kit | budget | holds |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  );
}
if (only.has("browser")) {
  const page = await serveBenchPage();
  const b = await browserFigures(page.url);
  page.close();
  const k = b.streaming.kit;
  const n = b.streaming.shiki;
  const same = b.streaming.naive;
  lines.push(
    row("1 streaming", "longest main-thread task", ms(median(k.longest)), ms(median(n.longest)), ratio(median(k.longest), median(n.longest)), "< 50 ms", median(k.longest) < 50),
    row("1 streaming", "total main-thread time", ms(median(k.total)), ms(median(n.total)), ratio(median(k.total), median(n.total)), "≥ 10× less than baseline", median(n.total) / median(k.total) >= 10),
    row("1 streaming", "highlighting work (time in the highlighter)", ms(median(k.tokenize)), ms(median(n.tokenize)), ratio(median(k.tokenize), median(n.tokenize)), `≤ 2× one full highlight (${ms(median(k.oneShot))})`, median(k.tokenize) <= 2 * median(k.oneShot)),
    row("1 streaming", "last delta → final highlighting on screen", ms(median(k.final)), ms(median(n.final)), "", "", null),
    row("1 streaming", "final result identical to a one-shot highlight", String(k.identical.every(Boolean)), String(n.identical.every(Boolean)), "", "identical", k.identical.every(Boolean)),
    row("1 streaming", "one full highlight of the final program", ms(median(k.oneShot)), ms(median(n.shikiOneShot)), "", "", null),
    row("1 streaming, same tokenizer", "longest task / total main-thread time, against a full re-highlight with the kit's own tokenizer", `${ms(median(k.longest))} / ${ms(median(k.total))}`, `${ms(median(same.longest))} / ${ms(median(same.total))}`, ratio(median(k.total), median(same.total)), "", null),
    row("2 first paint", "mount → first frame, with the code text in it", ms(median(b.firstPaint.text.map((t) => t ?? Number.NaN))), "", "", "in the first frame", b.firstPaint.text.every((t) => t !== null)),
    row("2 first paint", "mount → highlighting visible (cold)", ms(median(b.firstPaint.highlight)), "", "", "< 300 ms", median(b.firstPaint.highlight) < 300),
    row("3 1 MB ANSI output", "mount → first paint", ms(median(b.largeOutput.paint)), "", "", "< 100 ms", median(b.largeOutput.paint) < 100),
    row("3 1 MB ANSI output", "longest task", ms(median(b.largeOutput.longest)), "", "", "< 50 ms", median(b.largeOutput.longest) < 50),
    row("3 1 MB ANSI output", "DOM nodes in the card", String(median(b.largeOutput.nodes)), "", "", "a few thousand", median(b.largeOutput.nodes) <= 5000),
    row("4 thread", `re-renders of 50 finished cards while a 51st streams (${median(b.thread.cards)} cards)`, String(median(b.thread.renders)), "", "", "0", median(b.thread.renders) === 0),
  );
}
if (only.has("bundle")) {
  const bundle = await bundleSizes();
  lines.push(
    row("5 bundle", "browser entry and the chunks it imports, gzipped, without react and assistant-ui", kb(bundle.entry), "", "", "≤ 20 KB", bundle.entry <= 20 * 1024),
    row("5 bundle", "the kit's own entry code alone, dependencies external, gzipped", kb(bundle.ownEntry), "", "", "", null),
    row("5 bundle", "lazy highlighter chunk, gzipped", kb(bundle.highlighter), "", "", "≤ 75 KB, no WASM", bundle.highlighter <= 75 * 1024 && !bundle.wasm),
  );
}
if (only.has("server")) {
  const server = await serverFigures();
  lines.push(
    row("6 server", "tool overhead per call (token + loopback round trip)", ms(server.toolOverhead), "", "", "< 3 ms", server.toolOverhead < 3),
    row("6 server", "Pyodide `print(1)` on a pooled fresh interpreter", ms(server.pyodidePrint), "", "", "< 50 ms", server.pyodidePrint < 50),
    row("6 server", "Pyodide `print(1)` back to back (each waits for a fresh interpreter to start)", ms(server.pyodideBackToBack), "", "", "", null),
    row("6 server", "making the memory snapshot (cold Pyodide start, once per machine)", ms(server.snapshotMs), "", "", "", null),
    row("6 server", "first `print(1)` of an executor with no snapshot yet", ms(server.coldFirstRun), "", "", "", null),
  );
}
if (only.has("demo")) {
  // The demo's own settings (30 ms between model chunks), through POST /api/chat.
  const noCache = await demoSpeed({ snapshotCacheDir: false });
  const cached = await demoSpeed();
  lines.push(
    "",
    "| demo `print(1)` through /api/chat | tool call (input complete → output) | whole chat turn |",
    "| --- | --- | --- |",
    `| cold, first start on a machine (makes the snapshot) | ${ms(noCache.cold.toolMs)} | ${ms(noCache.cold.totalMs)} |`,
    `| cold, snapshot kept from an earlier start | ${ms(cached.cold.toolMs)} | ${ms(cached.cold.totalMs)} |`,
    `| warm (median of 10 later runs) | ${ms(cached.warm.toolMs)} | ${ms(cached.warm.totalMs)} |`,
    `| all outputs right | ${noCache.ok && cached.ok} | |`,
  );
}
if (only.has("soak")) {
  const runs = Number(process.env.SOAK_RUNS ?? 3000);
  const s = await soak({ runs, concurrency: 10, every: 500 });
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  lines.push(
    "",
    `Soak: ${s.runs} runs through /api/chat, ${s.concurrency} at a time, each from its own browser cookie, every run in a fresh Pyodide process.`,
    "",
    "| runs/s | p50 latency | p95 latency | lost or wrong results | time |",
    "| --- | --- | --- | --- | --- |",
    `| ${s.runsPerSecond.toFixed(2)} | ${ms(s.p50Ms)} | ${ms(s.p95Ms)} | ${s.lost} | ${s.seconds.toFixed(0)} s |`,
    "",
    "| after runs | harness RSS after GC | harness heap after GC | interpreter processes |",
    "| --- | --- | --- | --- |",
    ...s.memory.map((m) => `| ${m.runs} | ${mb(m.rssMb)} | ${mb(m.heapMb)} | ${m.interpreters} |`),
  );
}
console.log(lines.join("\n"));
process.exit(0);
