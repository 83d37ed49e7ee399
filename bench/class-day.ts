// A class day: many students through /api/chat of a harness run as `npm
// start` runs it (CPython, the sandbox in a process of its own), each with
// their own address, cookie and chat, one program a minute from a first
// course's mix, every answer checked against what it must print; beside
// them a few hostile students doing what held the server before (a burst
// of requests on a big running chat, a 10 MB file attached again and again,
// floods of output), and a class behind one address with a newcomer. It
// measures; it asserts nothing.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { readLines } from "../src/server/codeapi/sandbox-stream.ts";

const OPERATOR = "class-day";
/** The quiet class that each class's turns are read against. */
const QUIET_CLASS = 30;
/** `CLASS_HOSTILE=burst,attach,flood` (all three by default; empty for none). */
const HOSTILE = (process.env.CLASS_HOSTILE ?? "burst,attach,flood").split(",");

/** What a turn came back as. */
type Outcome = "right" | "busy" | "lost" | "wrong";

interface Turn {
  kind: string;
  ms: number;
  outcome: Outcome;
  detail?: string;
}

interface ToolOutput {
  status?: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number | null;
  code?: string;
  message?: string;
  files?: Array<{ kind: string; mediaType: string; ref: { sessionId: string; fileId: string } }>;
}

const GRADES = `student,score\n${Array.from({ length: 40 }, (_, i) => `s${i},${50 + ((i * 7) % 50)}`).join("\n")}\n`;
const GRADES_MEAN = Array.from({ length: 40 }, (_, i) => 50 + ((i * 7) % 50)).reduce((a, b) => a + b, 0) / 40;

/** A first course's mix: each kind's program, and what its output must be. */
const KINDS: Array<{
  kind: string;
  weight: number;
  program: (n: number) => string;
  check: (output: ToolOutput, n: number) => boolean;
}> = [
  {
    kind: "quick",
    weight: 40,
    program: (n) => `print(sum(range(1, ${n} + 1)))`,
    check: (o, n) => o.status === "completed" && o.exitCode === 0 && o.stdout === `${(n * (n + 1)) / 2}\n`,
  },
  {
    kind: "traceback",
    weight: 15,
    program: () => "def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))",
    check: (o) => o.status === "completed" && o.exitCode === 1 && !!o.stderr?.includes("ZeroDivisionError"),
  },
  {
    kind: "pandas",
    weight: 15,
    program: (n) => `import pandas as pd\ndf = pd.DataFrame({"x": range(${n})})\nprint(int(df.x.sum()))`,
    check: (o, n) => o.status === "completed" && o.stdout === `${(n * (n - 1)) / 2}\n`,
  },
  {
    kind: "plot",
    weight: 12,
    program: (n) =>
      `import matplotlib.pyplot as plt\nplt.plot(range(${(n % 50) + 2}))\nplt.title("line")\nplt.show()\nprint("drawn")`,
    check: (o) => o.status === "completed" && o.stdout === "drawn\n" && !!o.files?.some((f) => f.kind === "image"),
  },
  {
    kind: "csv",
    weight: 10,
    program: () => 'import pandas as pd\nprint(round(pd.read_csv("grades.csv").score.mean(), 3))',
    check: (o) => o.status === "completed" && Number(o.stdout) === Math.round(GRADES_MEAN * 1000) / 1000,
  },
  {
    kind: "long",
    weight: 6,
    program: () => "for i in range(3000):\n    print(i)",
    check: (o) => o.status === "completed" && !!o.stdout?.startsWith("0\n1\n2\n") && !!o.stdout?.endsWith("2999\n"),
  },
  {
    kind: "endless",
    weight: 2,
    program: () => "n = 0\nwhile True:\n    n += 1",
    // Its time limit, or stopped sooner to make room, once its owner has used a time limit more than one waiting.
    check: (o) =>
      o.status === "timeout" ||
      (o.status === "completed" && o.exitCode === null && !!o.stderr?.includes("The sandbox was full")),
  },
];
const TOTAL_WEIGHT = KINDS.reduce((sum, kind) => sum + kind.weight, 0);

function pickKind(random: () => number) {
  let left = random() * TOTAL_WEIGHT;
  for (const kind of KINDS) {
    left -= kind.weight;
    if (left < 0) return kind;
  }
  return KINDS[0]!;
}

/** A seeded generator: the same class each run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const fence = (program: string) => `Run this:\n\`\`\`python\n${program}\n\`\`\``;

/** One browser behind its own address: a cookie, and a chat of its own unless told otherwise. */
function student(url: string, address: string) {
  let cookie = "";
  let chatId = `class-${crypto.randomUUID()}`;
  const headers = () => ({ "x-forwarded-for": address, origin: url, ...(cookie ? { cookie } : {}) });
  const keep = (response: Response) => {
    const set = response.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0]!;
    return response;
  };
  return {
    address,
    /** Takes its cookie, as a page does on load, before anything is sent at once. */
    signIn: async () => void (await keep(await fetch(`${url}/api/session`, { headers: headers() })).text()),
    newChat: () => (chatId = `class-${crypto.randomUUID()}`),
    get chatId() {
      return chatId;
    },
    async get(path: string, extra: Record<string, string> = {}) {
      return keep(await fetch(`${url}${path}`, { headers: { ...headers(), ...extra } }));
    },
    async upload(name: string, content: string | Uint8Array, type = "text/csv") {
      const form = new FormData();
      form.append("file", new Blob([content as BlobPart], { type }), name);
      const response = keep(await fetch(`${url}/api/uploads`, { method: "POST", headers: headers(), body: form }));
      const body = (await response.json()) as { files?: Array<{ url: string; mediaType: string; name: string }> };
      return response.ok ? body.files![0]! : null;
    },
    /** A POST to /api/chat, read to its end: the turn's final tool output, or the refusal. */
    async say(
      text: string,
      files: Array<{ url: string; mediaType: string; name: string }> = [],
      chat = chatId,
    ): Promise<{ status: number; output?: ToolOutput; body?: string }> {
      const message = {
        id: `msg_${crypto.randomUUID()}`,
        role: "user",
        parts: [
          { type: "text", text },
          ...files.map((file) => ({ type: "file", url: file.url, mediaType: file.mediaType, filename: file.name })),
        ],
      };
      const response = keep(
        await fetch(`${url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers() },
          body: JSON.stringify({ id: chat, messages: [message], trigger: "submit-message" }),
        }),
      );
      if (!response.ok || !response.body) return { status: response.status, body: await response.text() };
      let output: ToolOutput | undefined;
      for await (const line of readLines(response.body)) {
        if (!line.startsWith("data: {")) continue;
        const chunk = JSON.parse(line.slice(6)) as { type: string; output?: ToolOutput; preliminary?: boolean };
        if (chunk.type === "tool-output-available" && !chunk.preliminary) output = chunk.output;
      }
      return { status: response.status, output };
    },
  };
}

type Student = ReturnType<typeof student>;

/** Sorts a turn's answer into right, busy (refused with a time to come back), lost or wrong. */
function judge(answer: Awaited<ReturnType<Student["say"]>>, check: (o: ToolOutput) => boolean) {
  const o = answer.output;
  if (answer.status === 429 || answer.status === 503 || o?.status === "busy") return { outcome: "busy" as const };
  if (!o)
    return { outcome: "lost" as const, detail: `HTTP ${answer.status} ${answer.body?.slice(0, 120) ?? "no result"}` };
  if (o.status === "error") return { outcome: "lost" as const, detail: `${o.code}: ${o.message}` };
  return check(o)
    ? { outcome: "right" as const }
    : { outcome: "wrong" as const, detail: JSON.stringify(o).slice(0, 200) };
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Probes GET /v1/health from a thread of its own, so the load generator's own delays are not counted. */
function healthProbe(url: string, everyMs = 200) {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const times = []; let stop = false;
     parentPort.on("message", () => { stop = true; });
     (async () => {
       while (!stop) {
         const started = performance.now();
         try { await (await fetch(workerData.url + "/v1/health")).text(); times.push(performance.now() - started); }
         catch { times.push(Infinity); }
         await new Promise((r) => setTimeout(r, workerData.everyMs));
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: { url, everyMs } },
  );
  return {
    stop: () =>
      new Promise<number[]>((resolve) => {
        worker.once("message", (times: number[]) => void worker.terminate().then(() => resolve(times)));
        worker.postMessage("stop");
      }),
  };
}

async function operatorHealth(url: string) {
  const answer = await fetch(`${url}/v1/health`, { headers: { authorization: `Bearer ${OPERATOR}` } });
  return (await answer.json()) as { eventLoopDelayMs: { p50: number; p99: number; max: number } };
}

/** Address n of the class: each its own, as behind a proxy that names them. */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** One ordinary student's day: a program a minute, at a moment of their own in each minute. */
async function ordinaryStudent(url: string, n: number, minutes: number, turns: Turn[]) {
  const random = seeded(n * 7919 + 1);
  const me = student(url, addressOf(n + 1));
  let grades: Awaited<ReturnType<Student["upload"]>> = null;
  const start = performance.now();
  for (let minute = 0; minute < minutes; minute++) {
    const at = start + (minute + random()) * 60_000;
    await sleep(Math.max(0, at - performance.now()));
    const kind = pickKind(random);
    const x = 10 + Math.floor(random() * 1000);
    const began = performance.now();
    let files: Array<{ url: string; mediaType: string; name: string }> = [];
    if (kind.kind === "csv") {
      grades ??= await me.upload("grades.csv", GRADES);
      if (!grades) {
        turns.push({ kind: kind.kind, ms: performance.now() - began, outcome: "busy" });
        continue;
      }
      files = [grades];
    }
    const answer = await me.say(fence(kind.program(x)), files);
    const judged = judge(answer, (o) => kind.check(o, x));
    // A figure that is named must be there: its bytes, for its owner.
    if (judged.outcome === "right" && kind.kind === "plot") {
      const figure = answer.output!.files!.find((file) => file.kind === "image")!;
      const got = await me.get(`/api/files/${figure.ref.sessionId}/${figure.ref.fileId}`);
      const bytes = new Uint8Array(await got.arrayBuffer());
      if (got.status !== 200 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47)
        Object.assign(judged, { outcome: "lost", detail: `figure: HTTP ${got.status}` });
    }
    turns.push({ kind: kind.kind, ms: performance.now() - began, ...judged });
  }
}

/** Hostile: a big chat (12 messages of 60,000 control characters), then bursts of 40 POSTs while it runs. */
async function burstingStudent(url: string, until: number, log: string[]) {
  const me = student(url, addressOf(60_001));
  const noise = "\u0001".repeat(60_000);
  for (let i = 0; i < 12 && performance.now() < until; i++) await me.say(noise);
  while (performance.now() < until) {
    const running = me.say(fence("import time\ntime.sleep(2)\nprint('slept')"));
    await sleep(300);
    const burst = await Promise.all(Array.from({ length: 40 }, () => me.say("again?").then((answer) => answer.status)));
    const answered = await running;
    log.push(
      `burst: ${burst.filter((s) => s === 409).length}×409 ${burst.filter((s) => s === 429).length}×429, run ${answered.output?.status}`,
    );
    await sleep(Math.max(0, 60_000 - 2_300));
  }
}

/** Hostile: one 10 MB upload of line breaks, attached again to 6 messages (2 per chat). */
async function attachingStudent(url: string, until: number, log: string[]) {
  const me = student(url, addressOf(60_002));
  while (performance.now() < until) {
    const file = await me.upload("breaks.csv", new Uint8Array(10 * 1024 * 1024).fill(0x0a));
    const statuses: number[] = [];
    for (let chat = 0; chat < 3 && file; chat++) {
      const id = me.newChat();
      for (let i = 0; i < 2; i++) statuses.push((await me.say("what is in it?", [file], id)).status);
    }
    log.push(`attach: upload ${file ? "kept" : "refused"}, messages ${statuses.join(" ")}`);
    await sleep(Math.min(30_000, Math.max(0, until - performance.now())));
  }
}

/** Hostile: four cookies of one address looping programs that print about a million characters per stream. */
async function floodingStudents(url: string, until: number, log: string[]) {
  const program = [
    "import sys",
    "line = '\\x1b[31m\\u202e' + 'x' * 40 + '\\r\\n'",
    "for i in range(20000):",
    "    sys.stdout.write(line)",
    "    sys.stderr.write(line)",
  ].join("\n");
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const me = student(url, addressOf(60_003));
      await me.signIn();
      let runs = 0;
      while (performance.now() < until) {
        me.newChat();
        await me.say(fence(program));
        runs++;
        await sleep(1_000);
      }
      log.push(`flood: ${runs} runs`);
    }),
  );
}

/** A class behind one address: eight students send 10 programs of time.sleep(4.5) at once, then a newcomer one. */
async function sharedAddress(url: string) {
  const address = addressOf(60_004);
  const sleepers = Array.from({ length: 8 }, () => student(url, address));
  for (const me of sleepers) await me.signIn();
  const all = sleepers.flatMap((me) =>
    Array.from({ length: 10 }, () => {
      const chat = me.newChat();
      return me.say(fence("import time\ntime.sleep(4.5)\nprint('awake')"), [], chat);
    }),
  );
  await sleep(2_000);
  const newcomer = student(url, address);
  await newcomer.signIn();
  const began = performance.now();
  const answer = await newcomer.say(fence("print('newcomer')"));
  const newcomerMs = performance.now() - began;
  const outcomes = (await Promise.all(all)).map((a) =>
    a.output?.status === "error" ? `error ${a.output.code}` : (a.output?.status ?? `HTTP ${a.status}`),
  );
  return {
    newcomerMs,
    newcomer: answer.output?.stdout === "newcomer\n" ? "ran" : (answer.output?.status ?? `HTTP ${answer.status}`),
    sleepers: [...new Set(outcomes)]
      .map((status) => `${outcomes.filter((o) => o === status).length} ${status}`)
      .join(", "),
  };
}

export interface ClassSize {
  students: number;
  turns: number;
  lost: number;
  wrong: number;
  busy: number;
  byKind: Record<string, { p50: number; p95: number; n: number }>;
  health: { p95: number; max: number };
  eventLoop: { p99: number; max: number };
  failures: string[];
  hostile: string[];
}

/** One class size for `minutes`, with the hostile few beside it. */
async function playClass(url: string, students: number, minutes: number, hostile: string[]): Promise<ClassSize> {
  const turns: Turn[] = [];
  const log: string[] = [];
  await operatorHealth(url);
  const probe = healthProbe(url);
  const until = performance.now() + minutes * 60_000;
  await Promise.all([
    ...Array.from({ length: students }, (_, n) => ordinaryStudent(url, n, minutes, turns)),
    ...(hostile.includes("burst") ? [burstingStudent(url, until, log)] : []),
    ...(hostile.includes("attach") ? [attachingStudent(url, until, log)] : []),
    ...(hostile.includes("flood") ? [floodingStudents(url, until, log)] : []),
  ]);
  const times = await probe.stop();
  const { eventLoopDelayMs } = await operatorHealth(url);
  const byKind: ClassSize["byKind"] = {};
  for (const { kind } of KINDS) {
    const ms = turns.filter((turn) => turn.kind === kind && turn.outcome === "right").map((turn) => turn.ms);
    byKind[kind] = { p50: percentile(ms, 50), p95: percentile(ms, 95), n: ms.length };
  }
  const count = (outcome: Outcome) => turns.filter((turn) => turn.outcome === outcome).length;
  return {
    students,
    turns: turns.length,
    lost: count("lost"),
    wrong: count("wrong"),
    busy: count("busy"),
    byKind,
    health: { p95: percentile(times, 95), max: Math.max(...times) },
    eventLoop: { p99: eventLoopDelayMs.p99, max: eventLoopDelayMs.max },
    failures: turns
      .filter((turn) => turn.outcome === "lost" || turn.outcome === "wrong")
      .slice(0, 10)
      .map((turn) => `${turn.kind} ${turn.outcome}: ${turn.detail}`),
    hostile: [...new Set(log)].slice(0, 12),
  };
}

/**
 * Starts the built harness exactly as `npm start` does (`node
 * dist/harness/start.js`, `npm run build` first), with the students'
 * addresses from a proxy's X-Forwarded-For; plays each class size, then
 * the class behind one address.
 */
export async function classDay({ sizes, minutes }: { sizes: number[]; minutes: number }) {
  const start = fileURLToPath(new URL("../dist/harness/start.js", import.meta.url));
  if (!existsSync(start)) throw new Error("The class day runs the built harness: npm run build first.");
  const dataDir = mkdtempSync(path.join(tmpdir(), "ecu-class-"));
  const child = spawn(
    process.execPath,
    [
      // CLASS_PROFILE_DIR=/tmp/prof keeps a CPU profile of the harness's thread, for finding what held it.
      ...(process.env.CLASS_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CLASS_PROFILE_DIR}`] : []),
      start,
    ],
    {
      env: {
        ...process.env,
        PORT: "0",
        HARNESS_DATABASE: path.join(dataDir, "chats.sqlite"),
        SANDBOX_ENGINE: "cpython",
        HARNESS_TRUST_PROXY: "1",
        HARNESS_OPERATOR_TOKEN: OPERATOR,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`The harness ended at start (exit ${code}).`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const said = /^execute-code-ui harness: (\S+)/.exec(line);
      if (said) resolve(said[1]!);
    });
  });
  try {
    // The quiet baseline: a small class alone, so that each class's turns can be read against it.
    const quiet = await playClass(url, QUIET_CLASS, 1, []);
    console.error(`quiet class of ${QUIET_CLASS}: ${JSON.stringify(quiet)}`);
    const classes: ClassSize[] = [];
    for (const students of sizes) {
      classes.push(await playClass(url, students, minutes, HOSTILE));
      console.error(`class of ${students}: ${JSON.stringify(classes.at(-1))}`);
    }
    const shared = await sharedAddress(url);
    return { quiet, classes, shared };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The largest class whose quick turns stayed under 2 s at p95 with nothing lost or wrong. */
export function largestClass(classes: ClassSize[]): number | null {
  const held = classes.filter((c) => c.byKind.quick!.p95 < 2_000 && c.lost === 0 && c.wrong === 0);
  return held.length ? Math.max(...held.map((c) => c.students)) : null;
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} ms` : "—");

/** The class day's tables, for BENCHMARKS.md. */
export function classDayReport(result: Awaited<ReturnType<typeof classDay>>, minutes: number): string {
  const largest = largestClass(result.classes);
  return [
    `Each class plays ${minutes} minutes through \`/api/chat\` (the CPython engine, the sandbox in a process of its own, npm start's limits): every student their own address, cookie and chat, one program a minute (${KINDS.map((k) => `${k.kind} ${Math.round((100 * k.weight) / TOTAL_WEIGHT)} %`).join(", ")}), every answer checked. Beside each class, the hostile few: a burst of 40 POSTs a minute on their own running chat of 4.3 MB, a 10 MB file of line breaks attached to 6 messages, and four cookies looping programs that print a million characters per stream. \`/v1/health\` is asked every 200 ms from a thread of its own; the event loop's delay is the harness's own (\`monitorEventLoopDelay\`).`,
    "",
    "| students | turns | lost | wrong | busy | quick p50 / p95 | traceback | pandas | plot | csv | long | endless | /v1/health p95 / max | event loop p99 / max |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...[
      { ...result.quiet, label: `${result.quiet.students}, quiet (no hostile few, 1 minute)` },
      ...result.classes,
    ].map((c) => {
      const kind = (name: string) => `${ms(c.byKind[name]!.p50)} / ${ms(c.byKind[name]!.p95)}`;
      return `| ${"label" in c ? c.label : c.students} | ${c.turns} | ${c.lost} | ${c.wrong} | ${c.busy} | ${kind("quick")} | ${kind("traceback")} | ${kind("pandas")} | ${kind("plot")} | ${kind("csv")} | ${kind("long")} | ${kind("endless")} | ${ms(c.health.p95)} / ${ms(c.health.max)} | ${ms(c.eventLoop.p99)} / ${ms(c.eventLoop.max)} |`;
    }),
    "",
    `Largest class with quick turns under 2 s at p95 and nothing lost or wrong: ${largest ?? "none of these"}. Quick turns against the quiet class's (p50 ${ms(result.quiet.byKind.quick!.p50)}): ${result.classes.map((c) => `${c.students}: ${(c.byKind.quick!.p50 / result.quiet.byKind.quick!.p50).toFixed(2)}× at p50, ${(c.byKind.quick!.p95 / result.quiet.byKind.quick!.p50).toFixed(2)}× at p95`).join("; ")}.`,
    "",
    `A class behind one address (eight students, each sending 10 programs of \`time.sleep(4.5)\` at once): a newcomer behind the same address ${result.shared.newcomer} after ${ms(result.shared.newcomerMs)}; the eighty: ${result.shared.sleepers}.`,
    ...result.classes.flatMap((c) =>
      c.failures.length ? ["", `Lost or wrong at ${c.students}:`, ...c.failures.map((f) => `- \`${f}\``)] : [],
    ),
  ].join("\n");
}

// `npx tsx bench/class-day.ts [sizes] [minutes]`: the class day alone, its tables printed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.argv[2] ?? "100,200,300,400").split(",").filter(Boolean).map(Number);
  const minutes = Number(process.argv[3] ?? 2);
  console.log(classDayReport(await classDay({ sizes, minutes }), minutes));
  process.exit(0);
}
