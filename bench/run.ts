// `npm run bench`: measures the kit against a naive baseline in headless
// Chromium on a production build, plus bundle sizes and the server side.
// Prints one table; every figure is the median of several runs.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { generateKeyPair } from "jose";
import { chromium, type Browser, type Page } from "playwright";
import { build, type Rolldown } from "vite";
import {
  createCpythonExecutor,
  createSandbox,
  createPyodideExecutor,
  createScriptedExecutor,
  probeCpython,
} from "../src/sandbox";
import { createStaticHandler } from "../src/harness/static-files";
import { createExecuteCodeTool } from "../src/server";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.ts";
import { createPythonTokenizer } from "../src/ui/highlight/python-tokenizer";
import { largeProgram } from "../stories/fixtures";
import { demoSpeed } from "./demo-speed.ts";
import { backendFigures } from "./backends.ts";
import { engineFigures } from "./engine-figures.ts";
import { median } from "./median.ts";
import { withResults } from "./results-section.ts";
import { expectedTokens } from "./page/colours";
import { soak } from "./soak.ts";
import { classDay, classDayReport } from "./class-day.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** `BENCH_ONLY=aiThread,firstPaint` runs only those scenarios (for a quick look); the table then lists only their rows. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : null;
const wanted = (scenario: string) => !ONLY || ONLY.has(scenario);
/** `BENCH_TRACE_DIR=/tmp/traces` keeps every trace (and builds the page unminified), for `npx tsx bench/long-tasks.ts <trace>`. */
const TRACE_DIR = process.env.BENCH_TRACE_DIR;
/** A long task, as the budgets count them. */
const LONG_TASK_MS = 50;
const ms = (n: number | null) => (n === null ? "—" : `${n.toFixed(n < 10 ? 2 : 0)} ms`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

/**
 * Longest task, tasks of 50 ms or more and total busy time of the page's main
 * thread, from a Chromium trace. Wall time is what the budgets count; CPU
 * (thread) time leaves out the time the thread waited for a core, which on a
 * shared two-core machine can double a task.
 */
export function mainThreadTasks(trace: Buffer): {
  longestMs: number;
  totalMs: number;
  longTasks: number;
  longestCpuMs: number;
  longCpuTasks: number;
  /** The longest task that started after the page's performance.mark("thread-mounted"), wall and CPU. */
  afterMount: { longestMs: number; longestCpuMs: number };
} {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // Newer Chromium names its top-level tasks ThreadControllerImpl::RunTask, with RunTask nested inside.
  const taskName = events.some((e) => e.name === "ThreadControllerImpl::RunTask")
    ? "ThreadControllerImpl::RunTask"
    : "RunTask";
  const byThread = new Map<string, Array<{ ts: number; wall: number; cpu: number }>>();
  for (const e of events) {
    if (e.ph !== "X" || e.name !== taskName) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!mainThreads.has(key)) continue;
    byThread.set(key, [
      ...(byThread.get(key) ?? []),
      { ts: e.ts, wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? e.dur ?? 0) / 1000 },
    ]);
  }
  // The page's renderer is the busiest one.
  const busy = (tasks: Array<{ wall: number }>) => tasks.reduce((s, t) => s + t.wall, 0);
  const tasks = [...byThread.values()].sort((a, b) => busy(b) - busy(a))[0] ?? [{ ts: 0, wall: 0, cpu: 0 }];
  const mounted = events.find((e) => e.name === "thread-mounted" && e.ph !== "M")?.ts ?? Number.POSITIVE_INFINITY;
  const later = tasks.filter((t) => t.ts >= mounted);
  return {
    afterMount: {
      longestMs: Math.max(0, ...later.map((t) => t.wall)),
      longestCpuMs: Math.max(0, ...later.map((t) => t.cpu)),
    },
    longestMs: Math.max(...tasks.map((t) => t.wall)),
    totalMs: busy(tasks),
    longTasks: tasks.filter((t) => t.wall >= LONG_TASK_MS).length,
    longestCpuMs: Math.max(...tasks.map((t) => t.cpu)),
    longCpuTasks: tasks.filter((t) => t.cpu >= LONG_TASK_MS).length,
  };
}

let traceCount = 0;
async function traced<T>(browser: Browser, page: Page, run: () => Promise<T>, name = "trace") {
  const categories = ["toplevel", "disabled-by-default-devtools.timeline", "blink.user_timing"];
  if (TRACE_DIR) categories.push("v8.execute", "devtools.timeline");
  // BENCH_PROFILE=1 adds the sampling profiler, so that bench/long-tasks.ts can name the functions inside a long task (it slows the page).
  if (TRACE_DIR && process.env.BENCH_PROFILE) categories.push("disabled-by-default-v8.cpu_profiler");
  await browser.startTracing(page, { categories });
  const result = await run();
  const trace = await browser.stopTracing();
  if (TRACE_DIR) {
    mkdirSync(TRACE_DIR, { recursive: true });
    writeFileSync(`${TRACE_DIR}/${String(++traceCount).padStart(2, "0")}-${name}.json`, trace);
  }
  return { result, ...mainThreadTasks(trace) };
}

async function serveBenchPage(): Promise<{ url: string; close: () => void }> {
  execFileSync("npx", ["vite", "build", "--config", "vite.bench.config.ts", "--logLevel", "warn"], {
    stdio: "inherit",
  });
  const serve = createStaticHandler("dist-bench");
  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** The colours of the thread scenario's final program, highlighted here so that the page stays cold. */
async function threadExpectation() {
  const tokenizer = await createPythonTokenizer();
  const lines = tokenizer.tokenize(largeProgram(20_000)).lines;
  return {
    expected: expectedTokens(lines),
    tokenCount: lines.reduce((sum, line) => sum + line.length, 0),
    lineCount: lines.length,
  };
}

const nums = () => [] as number[];

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
    kinds.map((kind) => [
      kind,
      {
        longest: nums(),
        longestCpu: nums(),
        longTasks: nums(),
        total: nums(),
        final: nums(),
        finalInView: nums(),
        tokenize: nums(),
        oneShot: nums(),
        shikiOneShot: nums(),
        identical: [] as boolean[],
      },
    ]),
  ) as Record<
    (typeof kinds)[number],
    {
      longest: number[];
      longestCpu: number[];
      longTasks: number[];
      total: number[];
      final: number[];
      finalInView: number[];
      tokenize: number[];
      oneShot: number[];
      shikiOneShot: number[];
      identical: boolean[];
    }
  >;
  for (let i = 0; i < RUNS && wanted("streaming"); i++) {
    for (const kind of kinds) {
      const { page, close } = await fresh();
      await evaluate(page, `bench.prepareStream("${kind}")`);
      const run = await traced(
        browser,
        page,
        () =>
          evaluate<{ finalHighlightMs: number | null; finalInViewMs: number | null; tokenizeMs: number }>(
            page,
            "bench.stream()",
          ),
        `streaming-${kind}`,
      );
      const check = await evaluate<{ identical: boolean; oneShotMs: number; shikiOneShotMs: number | null }>(
        page,
        "bench.checkStream()",
      );
      const s = streaming[kind];
      s.longest.push(run.longestMs);
      s.longestCpu.push(run.longestCpuMs);
      s.longTasks.push(run.longTasks);
      s.total.push(run.totalMs);
      s.final.push(run.result.finalHighlightMs ?? Number.NaN);
      s.finalInView.push(run.result.finalInViewMs ?? Number.NaN);
      s.tokenize.push(run.result.tokenizeMs);
      s.oneShot.push(check.oneShotMs);
      if (check.shikiOneShotMs !== null) s.shikiOneShot.push(check.shikiOneShotMs);
      s.identical.push(check.identical);
      await close();
    }
  }

  const threadKinds = ["kit", "kit-unstarted", "shiki", "plain"] as const;
  const aiThread = Object.fromEntries(
    threadKinds.map((kind) => [
      kind,
      {
        afterMount: nums(),
        afterMountCpu: nums(),
        longest: nums(),
        longestCpu: nums(),
        longCpuTasks: nums(),
        longTasks: nums(),
        total: nums(),
        firstHighlight: nums(),
        cardToColours: nums(),
        final: nums(),
        finalInView: nums(),
        result: nums(),
        identical: [] as boolean[],
      },
    ]),
  ) as Record<
    (typeof threadKinds)[number],
    {
      afterMount: number[];
      afterMountCpu: number[];
      longest: number[];
      longestCpu: number[];
      longCpuTasks: number[];
      longTasks: number[];
      total: number[];
      firstHighlight: number[];
      cardToColours: number[];
      final: number[];
      finalInView: number[];
      result: number[];
      identical: boolean[];
    }
  >;
  const expectation = wanted("aiThread") ? await threadExpectation() : null;
  for (let i = 0; i < RUNS && expectation; i++) {
    for (const kind of threadKinds) {
      const { page, close } = await fresh();
      await page.evaluate(
        ([k, e]) =>
          (window as unknown as { bench: { prepareAiThread: (...args: unknown[]) => void } }).bench.prepareAiThread(
            k,
            e.expected,
            e.tokenCount,
            e.lineCount,
          ),
        [kind, expectation] as const,
      );
      const run = await traced(
        browser,
        page,
        () =>
          evaluate<{
            firstCardMs: number | null;
            firstHighlightMs: number | null;
            finalHighlightMs: number | null;
            finalInViewMs: number | null;
            resultMs: number | null;
            identical: boolean;
          }>(page, "bench.aiThread()"),
        `ai-thread-${kind}`,
      );
      const s = aiThread[kind];
      s.longest.push(run.longestMs);
      s.longestCpu.push(run.longestCpuMs);
      s.longCpuTasks.push(run.longCpuTasks);
      s.afterMount.push(run.afterMount.longestMs);
      s.afterMountCpu.push(run.afterMount.longestCpuMs);
      s.longTasks.push(run.longTasks);
      s.total.push(run.totalMs);
      s.firstHighlight.push(run.result.firstHighlightMs ?? Number.NaN);
      s.cardToColours.push(
        run.result.firstHighlightMs === null || run.result.firstCardMs === null
          ? Number.NaN
          : run.result.firstHighlightMs - run.result.firstCardMs,
      );
      s.final.push(run.result.finalHighlightMs ?? Number.NaN);
      s.finalInView.push(run.result.finalInViewMs ?? Number.NaN);
      s.result.push(run.result.resultMs ?? Number.NaN);
      s.identical.push(run.result.identical);
      await close();
    }
  }

  const firstPaint = { text: [] as Array<number | null>, highlight: nums() };
  const largeOutput = { paint: nums(), longest: nums(), longestCpu: nums(), nodes: nums() };
  const thread = { renders: nums(), cards: nums() };
  for (let i = 0; i < RUNS; i++) {
    if (wanted("firstPaint")) {
      const { page, close } = await fresh();
      const first = () => evaluate<{ codeTextMs: number | null; highlightMs: number }>(page, "bench.firstPaint()");
      // Traced only when the traces are kept: this figure is a timing, and tracing costs a little.
      const r = TRACE_DIR ? (await traced(browser, page, first, "first-paint")).result : await first();
      firstPaint.text.push(r.codeTextMs);
      firstPaint.highlight.push(r.highlightMs);
      await close();
    }
    if (wanted("largeOutput")) {
      const { page, close } = await fresh();
      await evaluate(page, "bench.prepareLargeOutput()");
      const run = await traced(
        browser,
        page,
        () => evaluate<{ firstPaintMs: number; domNodes: number }>(page, "bench.largeOutput()"),
        "large-output",
      );
      largeOutput.paint.push(run.result.firstPaintMs);
      largeOutput.longest.push(run.longestMs);
      largeOutput.longestCpu.push(run.longestCpuMs);
      largeOutput.nodes.push(run.result.domNodes);
      await close();
    }
    if (wanted("thread")) {
      const { page, close } = await fresh();
      const r = await evaluate<{ cards: number; finishedRenders: number }>(page, "bench.thread()");
      thread.renders.push(r.finishedRenders);
      thread.cards.push(r.cards);
      await close();
    }
  }
  const live = {
    p95: nums(),
    longest: nums(),
    longestCpu: nums(),
    longTasks: nums(),
    nodes: nums(),
    followed: [] as boolean[],
  };
  for (let i = 0; i < RUNS && wanted("liveOutput"); i++) {
    const { page, close } = await fresh();
    await evaluate(page, "bench.prepareLiveOutput()");
    const run = await traced(
      browser,
      page,
      () =>
        evaluate<{ p95ChunkToScreenMs: number; maxDomNodes: number; followedToEnd: boolean }>(
          page,
          "bench.liveOutput()",
        ),
      "live-output",
    );
    live.p95.push(run.result.p95ChunkToScreenMs);
    live.longest.push(run.longestMs);
    live.longestCpu.push(run.longestCpuMs);
    live.longTasks.push(run.longTasks);
    live.nodes.push(run.result.maxDomNodes);
    live.followed.push(run.result.followedToEnd);
    await close();
  }
  await browser.close();
  return { streaming, aiThread, firstPaint, largeOutput, thread, live };
}

async function bundleOutput(external: (id: string) => boolean) {
  const output = (await build({
    configFile: false,
    logLevel: "silent",
    build: { write: false, lib: { entry: "src/index.ts", formats: ["es"] }, rolldownOptions: { external } },
  })) as Rolldown.RolldownOutput[];
  return output.flatMap((o) => o.output);
}

async function bundleChunks(external: (id: string) => boolean) {
  return (await bundleOutput(external)).filter((c): c is Rolldown.OutputChunk => c.type === "chunk");
}

/** The highlighting worker as a host's bundler ships it: one file with shiki in it. */
function workerAsset(output: Array<Rolldown.OutputChunk | Rolldown.OutputAsset>): string {
  const asset = output.find(
    (o): o is Rolldown.OutputAsset => o.type === "asset" && o.fileName.includes("highlight-worker"),
  );
  // Before the worker (to measure an older kit with this harness) there is none.
  if (!asset) return "";
  return typeof asset.source === "string" ? asset.source : Buffer.from(asset.source).toString();
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
 * The browser entry and the worker as `npm run size` (size-limit) checks
 * them, on a library build of this checkout made for the bench: one
 * definition of each size, in bytes.
 */
async function checkedSizes(): Promise<{ entry: number; worker: number }> {
  // Inside the checkout, so that its imports resolve to node_modules as the built package's do.
  mkdirSync("node_modules/.cache", { recursive: true });
  const out = mkdtempSync("node_modules/.cache/bench-dist-");
  try {
    await build({ logLevel: "silent", build: { outDir: out, emptyOutDir: true, sourcemap: false } });
    // It exits 1 when a size is over its limit: the sizes are in its report either way.
    const checked = spawnSync(process.execPath, ["node_modules/size-limit/bin.js", "--json"], {
      env: { ...process.env, SIZE_LIMIT_DIST: out },
      encoding: "utf8",
    });
    const report = JSON.parse(checked.stdout) as Array<{ name: string; size: number }>;
    const size = (start: string) => report.find((check) => check.name.startsWith(start))!.size;
    return { entry: size("browser entry"), worker: size("highlighting worker") };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
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
  const fallback = chunks.filter((c) => c.name.includes("python-tokenizer") || c.name.includes("main-thread"));
  const worker = workerAsset(await bundleOutput((id) => /^(react|react-dom|@assistant-ui\/react)(\/|$)/.test(id)));
  const wasm = [...chunks.map((c) => c.code), worker].some((code) => /WebAssembly\.instantiate|onig\.wasm/.test(code));
  return {
    checked: await checkedSizes(),
    entry: total(eagerChunks(chunks)),
    ownEntry: total(eagerChunks(own)),
    worker: gzipSync(worker).length,
    fallback: total(fallback),
    wasm,
  };
}

async function serverFigures() {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA");
  const sandbox = createSandbox({
    publicKey,
    algorithms: ["EdDSA"],
    issuer: "bench",
    audience: "sandbox",
    executor: createScriptedExecutor(() => ({ stdout: "1\n", wallTimeMs: 0 })),
    rateLimit: { max: 1_000_000, windowMs: 1000 },
  });
  const server = createServer((req, res) => void sandbox.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const tool = createExecuteCodeTool({
    sandboxUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signing: { privateKey, algorithm: "EdDSA", issuer: "bench", audience: "sandbox" },
    participantId: "p",
    tenantId: "t",
  });
  const call = async () => {
    let last: unknown;
    for await (const output of tool.execute!(
      { code: "print(1)" },
      { toolCallId: "c", messages: [], context: {} },
    ) as AsyncIterable<unknown>)
      last = output;
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

  // The two engines side by side: print(1), a small plot saved as a PNG, and
  // 40 one-line runs at once (4 at a time, as the sandbox's slots allow).
  const engines = {
    pyodide: await engineFigures(createPyodideExecutor({ poolSize: 2, onWarning: () => undefined }), false),
    cpython: probeCpython().available ? await engineFigures(createCpythonExecutor(), true) : null,
    // The same CPython engine making each run the earlier way: fork, enter the namespaces, fork the program.
    cpythonForkTwice: probeCpython().available
      ? await engineFigures(createCpythonExecutor({ runProcess: "fork-twice" }), true)
      : null,
  };
  return {
    engines,
    backends: await backendFigures(),
    toolOverhead: median(times),
    pyodidePrint: median(pooled),
    pyodideBackToBack: median(backToBack),
    coldFirstRun,
    snapshotMs,
  };
}

// The machine is shared: its load says how far to trust the wall-clock figures.
const loadAtStart = loadavg();
const page = await serveBenchPage();
const b = await browserFigures(page.url);
page.close();
const bundle = wanted("bundle") ? await bundleSizes() : null;
const server = wanted("server") ? await serverFigures() : null;

const k = b.streaming.kit;
const n = b.streaming.shiki;
const same = b.streaming.naive;
const tk = b.aiThread.kit;
const tn = b.aiThread.shiki;
const tp = b.aiThread.plain;
const tu = b.aiThread["kit-unstarted"];
const row = (
  area: string,
  figure: string,
  kit: string,
  baseline: string,
  ratio: string,
  budget: string,
  holds: boolean | null,
) =>
  `| ${area} | ${figure} | ${kit} | ${baseline} | ${ratio} | ${budget} | ${holds === null ? "" : holds ? "yes" : "**no**"} |`;
const ratio = (a: number, b2: number) => `${(b2 / a).toFixed(1)}×`;
/** The backends side by side: Jupyter a kernel per chat in the kit's column, per run and codeapi beside it. */
const backendRows = (backends: Awaited<ReturnType<typeof backendFigures>>) => {
  const { codeapi, perRun, perChat } = backends;
  if (!perChat || !perRun) return [];
  const three = (pick: (f: NonNullable<typeof codeapi>) => string) =>
    `${pick(perChat)} / ${pick(perRun)} / ${codeapi ? pick(codeapi) : "—"}`;
  return [
    row(
      "6 backends",
      "`print(1)` in a chat, Jupyter per chat / per run / codeapi",
      three((f) => ms(f.print)),
      "",
      "",
      "",
      null,
    ),
    row(
      "6 backends",
      "a small plot shown, same order",
      three((f) => ms(f.plot)),
      "",
      "",
      "",
      null,
    ),
    row(
      "6 backends",
      "one-line runs a second, 4 at a time, a chat each, same order",
      three((f) => f.perSecond.toFixed(1)),
      "",
      "",
      "",
      null,
    ),
  ];
};
const count = (values: number[]) => String(median(values));
const baselines =
  "the naive baseline calls shiki's `codeToHtml` (JavaScript regex engine, stock Python grammar) on every delta and sets the HTML, as common chat kits do; the same-tokenizer row re-highlights the whole program with the kit's own tokenizer on every delta";
const rows = [
  ...(wanted("streaming")
    ? [
        row(
          "1 streaming",
          "longest main-thread task",
          ms(median(k.longest)),
          ms(median(n.longest)),
          ratio(median(k.longest), median(n.longest)),
          "< 50 ms",
          median(k.longest) < 50,
        ),
        row(
          "1 streaming",
          "tasks of 50 ms or more",
          count(k.longTasks),
          count(n.longTasks),
          "",
          "0",
          median(k.longTasks) === 0,
        ),
        row(
          "1 streaming",
          "longest task in CPU time (without waiting for a core)",
          ms(median(k.longestCpu)),
          ms(median(n.longestCpu)),
          "",
          "",
          null,
        ),
        row(
          "1 streaming",
          "total main-thread time",
          ms(median(k.total)),
          ms(median(n.total)),
          ratio(median(k.total), median(n.total)),
          "≥ 10× less than baseline",
          median(n.total) / median(k.total) >= 10,
        ),
        row(
          "1 streaming",
          "highlighting work (time in the highlighter; the kit's in its worker)",
          ms(median(k.tokenize)),
          ms(median(n.tokenize)),
          ratio(median(k.tokenize), median(n.tokenize)),
          `≤ 2× one full highlight (${ms(median(k.oneShot))})`,
          median(k.tokenize) <= 2 * median(k.oneShot),
        ),
        row(
          "1 streaming",
          "last delta → final colours on every line in view",
          ms(median(k.finalInView)),
          ms(median(n.finalInView)),
          "",
          "< 50 ms",
          median(k.finalInView) < 50,
        ),
        row(
          "1 streaming",
          "last delta → final colours on every line of the program, in view or not",
          ms(median(k.final)),
          ms(median(n.final)),
          "",
          "",
          null,
        ),
        row(
          "1 streaming",
          "final result identical to a one-shot highlight",
          String(k.identical.every(Boolean)),
          String(n.identical.every(Boolean)),
          "",
          "identical",
          k.identical.every(Boolean),
        ),
        row(
          "1 streaming",
          "one full highlight of the final program",
          ms(median(k.oneShot)),
          ms(median(n.shikiOneShot)),
          "",
          "",
          null,
        ),
        row(
          "1 streaming, same tokenizer",
          "longest task / total main-thread time, against a full re-highlight with the kit's own tokenizer",
          `${ms(median(k.longest))} / ${ms(median(k.total))}`,
          `${ms(median(same.longest))} / ${ms(median(same.total))}`,
          ratio(median(k.total), median(same.total)),
          "",
          null,
        ),
      ]
    : []),
  ...(wanted("firstPaint")
    ? [
        row(
          "2 first paint",
          "mount → first frame, with the code text in it",
          ms(median(b.firstPaint.text.map((t) => t ?? Number.NaN))),
          "",
          "",
          "in the first frame",
          b.firstPaint.text.every((t) => t !== null),
        ),
        row(
          "2 first paint",
          "mount → highlighting visible (cold)",
          ms(median(b.firstPaint.highlight)),
          "",
          "",
          "< 200 ms",
          median(b.firstPaint.highlight) < 200,
        ),
      ]
    : []),
  ...(wanted("largeOutput")
    ? [
        row(
          "3 1 MB ANSI output",
          "mount → first paint",
          ms(median(b.largeOutput.paint)),
          "",
          "",
          "< 100 ms",
          median(b.largeOutput.paint) < 100,
        ),
        row(
          "3 1 MB ANSI output",
          "longest task (CPU time)",
          `${ms(median(b.largeOutput.longest))} (${ms(median(b.largeOutput.longestCpu))})`,
          "",
          "",
          "< 50 ms",
          median(b.largeOutput.longest) < 50,
        ),
        row(
          "3 1 MB ANSI output",
          "DOM nodes in the card",
          String(median(b.largeOutput.nodes)),
          "",
          "",
          "a few thousand",
          median(b.largeOutput.nodes) <= 5000,
        ),
      ]
    : []),
  ...(wanted("thread")
    ? [
        row(
          "4 thread",
          `re-renders of 50 finished cards while a 51st streams (${median(b.thread.cards)} cards)`,
          String(median(b.thread.renders)),
          "",
          "",
          "0",
          median(b.thread.renders) === 0,
        ),
      ]
    : []),
  ...(bundle
    ? [
        row(
          "5 bundle",
          "browser entry and what it imports statically, without react and assistant-ui, minified and gzipped as a host ships it (`npm run size`)",
          `${(bundle.checked.entry / 1000).toFixed(1)} kB`,
          "",
          "",
          "≤ 20 kB",
          bundle.checked.entry <= 20_000,
        ),
        row(
          "5 bundle",
          "the same, as the library's build leaves it (names minified, whitespace kept), gzipped",
          kb(bundle.entry),
          "",
          "",
          "",
          null,
        ),
        row(
          "5 bundle",
          "the kit's own entry code alone, dependencies external, gzipped",
          kb(bundle.ownEntry),
          "",
          "",
          "",
          null,
        ),
        row(
          "5 bundle",
          "highlighting worker (shiki, grammar, themes), minified and gzipped as a host ships it (`npm run size`)",
          `${(bundle.checked.worker / 1000).toFixed(1)} kB`,
          "",
          "",
          "≤ 75 kB, no WASM",
          bundle.checked.worker <= 75_000 && !bundle.wasm,
        ),
        row(
          "5 bundle",
          "main-thread highlighter chunks, loaded only where no worker starts, gzipped",
          kb(bundle.fallback),
          "",
          "",
          "",
          null,
        ),
      ]
    : []),
  ...(server
    ? [
        row(
          "6 server",
          "tool overhead per call (token + loopback round trip)",
          ms(server.toolOverhead),
          "",
          "",
          "< 3 ms",
          server.toolOverhead < 3,
        ),
        row(
          "6 server",
          "Pyodide `print(1)` on a pooled fresh interpreter",
          ms(server.pyodidePrint),
          "",
          "",
          "< 50 ms",
          server.pyodidePrint < 50,
        ),
        row(
          "6 server",
          "Pyodide `print(1)` back to back (each waits for a fresh interpreter to start)",
          ms(server.pyodideBackToBack),
          "",
          "",
          "",
          null,
        ),
        row(
          "6 server",
          "making the memory snapshot (cold Pyodide start, once per machine)",
          ms(server.snapshotMs),
          "",
          "",
          "",
          null,
        ),
        row(
          "6 server",
          "first `print(1)` of an executor with no snapshot yet",
          ms(server.coldFirstRun),
          "",
          "",
          "",
          null,
        ),
        ...backendRows(server.backends),
        ...(server.engines.cpython
          ? [
              row(
                "6 engines",
                "`print(1)`, CPython against Pyodide (pooled)",
                ms(server.engines.cpython.print),
                ms(server.engines.pyodide.print),
                "",
                "CPython < 30 ms",
                server.engines.cpython.print < 30,
              ),
              row(
                "6 engines",
                "a small matplotlib plot saved as a PNG (CPython; Pyodide has no matplotlib)",
                ms(server.engines.cpython.plot),
                "",
                "",
                "< 250 ms",
                (server.engines.cpython.plot ?? Infinity) < 250,
              ),
              row(
                "6 engines",
                "one-line runs a second, 4 at a time, CPython against Pyodide",
                server.engines.cpython.perSecond.toFixed(1),
                server.engines.pyodide.perSecond.toFixed(1),
                "",
                "CPython ≥ 40",
                server.engines.cpython.perSecond >= 40,
              ),
              ...(server.engines.cpythonForkTwice
                ? [
                    row(
                      "6 engines",
                      "CPython, one clone per run against fork, enter, fork: `print(1)` / plot / runs a second",
                      `${ms(server.engines.cpython.print)} / ${ms(server.engines.cpython.plot)} / ${server.engines.cpython.perSecond.toFixed(1)}`,
                      `${ms(server.engines.cpythonForkTwice.print)} / ${ms(server.engines.cpythonForkTwice.plot)} / ${server.engines.cpythonForkTwice.perSecond.toFixed(1)}`,
                      "",
                      "",
                      null,
                    ),
                  ]
                : []),
            ]
          : [
              row(
                "6 engines",
                "CPython (not available here: bubblewrap or the packages are missing)",
                "—",
                ms(server.engines.pyodide.print),
                "",
                "",
                null,
              ),
            ]),
      ]
    : []),
  ...(wanted("liveOutput")
    ? [
        row(
          "8 live output",
          "longest main-thread task while 1 MB (10,000 lines) streams in over 10 s (CPU time)",
          `${ms(median(b.live.longest))} (${ms(median(b.live.longestCpu))})`,
          "",
          "",
          "< 50 ms",
          median(b.live.longest) < 50,
        ),
        row(
          "8 live output",
          "tasks of 50 ms or more",
          count(b.live.longTasks),
          "",
          "",
          "0",
          median(b.live.longTasks) === 0,
        ),
        row(
          "8 live output",
          "most DOM nodes in the card while it streams",
          String(median(b.live.nodes)),
          "",
          "",
          "bounded, as for finished output (≤ 5,000)",
          median(b.live.nodes) <= 5000,
        ),
        row(
          "8 live output",
          "chunk arriving at the page → its text on screen, p95",
          ms(median(b.live.p95)),
          "",
          "",
          "< 100 ms",
          median(b.live.p95) < 100,
        ),
        row(
          "8 live output",
          "the pane followed its newest line to the end",
          String(b.live.followed.every(Boolean)),
          "",
          "",
          "yes",
          b.live.followed.every(Boolean),
        ),
      ]
    : []),
  ...(wanted("aiThread")
    ? [
        row(
          "7 AI SDK thread",
          "longest main-thread task, mount → result, cold (the runtime's own mount, measured alone below)",
          ms(median(tk.longest)),
          ms(median(tn.longest)),
          ratio(median(tk.longest), median(tn.longest)),
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "tasks of 50 ms or more",
          count(tk.longTasks),
          count(tn.longTasks),
          "",
          // The runtime's mount has long tasks of its own (the plain-text thread): the kit adds none.
          `no more than the runtime alone (${count(tp.longTasks)})`,
          median(tk.longTasks) <= median(tp.longTasks),
        ),
        row(
          "7 AI SDK thread",
          "longest task / tasks of 50 ms or more, in CPU time (without waiting for a core)",
          `${ms(median(tk.longestCpu))} / ${count(tk.longCpuTasks)}`,
          `${ms(median(tn.longestCpu))} / ${count(tn.longCpuTasks)}`,
          "",
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "longest task once the thread has mounted (card, deltas, highlighting, result), wall / CPU",
          `${ms(median(tk.afterMount))} / ${ms(median(tk.afterMountCpu))}`,
          `${ms(median(tn.afterMount))} / ${ms(median(tn.afterMountCpu))}`,
          "",
          // Wall time also holds the waits for a core while the runtime and the browser start the page.
          "< 50 ms of CPU",
          median(tk.afterMountCpu) < 50,
        ),
        row(
          "7 AI SDK thread",
          "total main-thread time",
          ms(median(tk.total)),
          ms(median(tn.total)),
          ratio(median(tk.total), median(tn.total)),
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "last delta sent → final colours on every line in view",
          ms(median(tk.finalInView)),
          ms(median(tn.finalInView)),
          "",
          "< 50 ms",
          median(tk.finalInView) < 50,
        ),
        row(
          "7 AI SDK thread",
          "last delta sent → final colours on every line of the program, in view or not",
          ms(median(tk.final)),
          ms(median(tn.final)),
          "",
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "mount → first colours on screen (cold)",
          ms(median(tk.firstHighlight)),
          ms(median(tn.firstHighlight)),
          "",
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "card on screen → first colours (cold; the app starts the highlighter as the mounting snippet does)",
          ms(median(tk.cardToColours)),
          ms(median(tn.cardToColours)),
          "",
          "< 200 ms",
          median(tk.cardToColours) < 200,
        ),
        row(
          "7 AI SDK thread",
          "card on screen → first colours (cold; nothing started early: the card starts the highlighter)",
          ms(median(tu.cardToColours)),
          ms(median(tn.cardToColours)),
          "",
          "no later than the baseline",
          median(tu.cardToColours) <= median(tn.cardToColours),
        ),
        row(
          "7 AI SDK thread",
          "result sent → output on screen",
          ms(median(tk.result)),
          ms(median(tn.result)),
          "",
          "",
          null,
        ),
        row(
          "7 AI SDK thread",
          "final colours identical to a one-shot highlight",
          String(tk.identical.every(Boolean)),
          String(tn.identical.every(Boolean)),
          "",
          "identical",
          tk.identical.every(Boolean),
        ),
        row(
          "7 AI SDK thread, no highlighting",
          "the runtime alone, the code as plain text: longest task (CPU time) / tasks of 50 ms or more / once mounted, longest task (CPU time) / total main-thread time",
          `${ms(median(tp.longest))} (${ms(median(tp.longestCpu))}) / ${count(tp.longTasks)} / ${ms(median(tp.afterMount))} (${ms(median(tp.afterMountCpu))}) / ${ms(median(tp.total))}`,
          "",
          "",
          "",
          null,
        ),
      ]
    : []),
];
const load = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
const git = (...args: string[]) => execFileSync("git", args).toString().trim();
const commit = `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " with uncommitted changes" : ""}`;
const lines = [
  `Commit ${commit}. Runs per figure: ${RUNS} (median). ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, ${execFileSync(chromiumPath, ["--version"]).toString().trim()}, ${cpus().length} cores; load average (1, 5, 15 min) ${load(loadAtStart)} at the start, ${load(loadavg())} at the end.`,
  "",
  `Baselines — ${baselines}.`,
  "",
  "| area | figure | kit | naive baseline | baseline ÷ kit | budget | holds |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...rows,
  "",
  // Every run's figure, so that a reader can see the spread behind each median.
  "All runs:",
  ...(wanted("streaming")
    ? [
        `- streaming, kit: longest ${k.longest.map(ms).join(", ")} (CPU ${k.longestCpu.map(ms).join(", ")}); last delta → in view ${k.finalInView.map(ms).join(", ")}, every line ${k.final.map(ms).join(", ")}`,
      ]
    : []),
  ...(wanted("firstPaint") ? [`- first paint, cold highlighting: ${b.firstPaint.highlight.map(ms).join(", ")}`] : []),
  ...(wanted("liveOutput")
    ? [
        `- live output: longest ${b.live.longest.map(ms).join(", ")} (CPU ${b.live.longestCpu.map(ms).join(", ")}); p95 chunk → screen ${b.live.p95.map(ms).join(", ")}; DOM nodes ${b.live.nodes.join(", ")}`,
      ]
    : []),
  ...(wanted("aiThread")
    ? [
        `- AI SDK thread, kit: longest ${tk.longest.map(ms).join(", ")} (CPU ${tk.longestCpu.map(ms).join(", ")}); once mounted ${tk.afterMount.map(ms).join(", ")} (CPU ${tk.afterMountCpu.map(ms).join(", ")}); tasks ≥ 50 ms ${tk.longTasks.join(", ")}; last delta → in view ${tk.finalInView.map(ms).join(", ")}, every line ${tk.final.map(ms).join(", ")}; card → first colours ${tk.cardToColours.map(ms).join(", ")} (nothing started early: ${tu.cardToColours.map(ms).join(", ")})`,
        `- AI SDK thread, naive: longest ${tn.longest.map(ms).join(", ")} (CPU ${tn.longestCpu.map(ms).join(", ")}); tasks ≥ 50 ms ${tn.longTasks.join(", ")}; last delta → in view ${tn.finalInView.map(ms).join(", ")}, every line ${tn.final.map(ms).join(", ")}`,
        `- AI SDK thread, plain text: longest ${tp.longest.map(ms).join(", ")} (CPU ${tp.longestCpu.map(ms).join(", ")}); once mounted ${tp.afterMount.map(ms).join(", ")} (CPU ${tp.afterMountCpu.map(ms).join(", ")}); tasks ≥ 50 ms ${tp.longTasks.join(", ")}`,
      ]
    : []),
];
if (wanted("demo")) {
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
if (wanted("soak")) {
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
    ...(s.failures.length ? ["", "Lost or wrong:", ...s.failures.map((failure) => `- \`${failure}\``)] : []),
    "",
    "| after runs | harness RSS after GC | harness heap after GC | interpreter processes |",
    "| --- | --- | --- | --- |",
    ...s.memory.map((m) => `| ${m.runs} | ${mb(m.rssMb)} | ${mb(m.heapMb)} | ${m.interpreters} |`),
  );
}
if (wanted("classDay")) {
  // A class through /api/chat, with the hostile few: its own section, written even when run alone.
  const sizes = (process.env.CLASS_SIZES ?? "200,300,400,500").split(",").map(Number);
  const minutes = Number(process.env.CLASS_MINUTES ?? 3);
  // The class plays against the harness as npm start runs it: this commit's build.
  execFileSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  const day = classDayReport(await classDay({ sizes, minutes }), minutes);
  const section = `Commit ${commit}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}, ${cpus().length} cores; load average ${load(loadavg())} at the end.\n\n${day}`;
  console.log(`\n${section}`);
  writeFileSync("BENCHMARKS.md", withResults(readFileSync("BENCHMARKS.md", "utf8"), section, "class-day"));
}
console.log(lines.join("\n"));
writeResults(lines.join("\n"));
process.exit(0);

/** Only a run of every scenario replaces BENCHMARKS.md's results. */
function writeResults(report: string) {
  if (ONLY) return console.log("\nBENCH_ONLY was set: BENCHMARKS.md is left as it is.");
  writeFileSync("BENCHMARKS.md", withResults(readFileSync("BENCHMARKS.md", "utf8"), report));
  console.log("\nWritten into BENCHMARKS.md.");
}
