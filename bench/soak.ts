// The soak: thousands of runs through POST /api/chat against the real
// Pyodide sandbox, a few at a time, from separate browsers (cookies). Reports
// throughput, latency, the harness's memory after GC as it goes, and any
// result that went missing or came back wrong.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { chatClient } from "./chat-client.ts";

export interface SoakOptions {
  runs?: number;
  concurrency?: number;
  /** Memory is read after GC every this many runs. */
  every?: number;
}

export interface SoakFigures {
  runs: number;
  concurrency: number;
  seconds: number;
  runsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  lost: number;
  failures: string[];
  memory: Array<{ runs: number; rssMb: number; heapMb: number; interpreters: number }>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

function request<T>(child: ChildProcess, message: { type: string }, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type: string }) => {
      if (reply.type !== answer) return;
      child.off("message", onMessage);
      resolve(reply as T);
    };
    child.on("message", onMessage);
    child.send(message);
  });
}

export async function soak(options: SoakOptions = {}): Promise<SoakFigures> {
  const runs = options.runs ?? 3000;
  const concurrency = options.concurrency ?? 10;
  const every = options.every ?? 500;
  const child = fork(fileURLToPath(new URL("./soak-harness.ts", import.meta.url)), {
    execArgv: ["--expose-gc", "--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const { url } = await new Promise<{ url: string }>((resolve) =>
    child.on("message", (m: { type: string; url: string }) => m.type === "ready" && resolve(m)),
  );
  const memoryAt = async (done: number) => {
    const { rss, heapUsed } = await request<{ rss: number; heapUsed: number }>(child, { type: "memory" }, "memory");
    const health = (await (await fetch(`${url}/v1/health`, { headers: { authorization: "Bearer soak" } })).json()) as {
      interpreters?: unknown[];
    };
    return {
      runs: done,
      rssMb: rss / 1024 / 1024,
      heapMb: heapUsed / 1024 / 1024,
      interpreters: health.interpreters?.length ?? 0,
    };
  };

  const memory = [await memoryAt(0)];
  const latencies: number[] = [];
  let next = 0;
  let completed = 0;
  let lost = 0;
  /** What the first few lost or wrong results were, so that a report can say. */
  const failures: string[] = [];
  let checkpoint = Promise.resolve();
  const started = performance.now();
  const browser = async () => {
    const send = chatClient(url);
    while (next < runs) {
      const n = next++;
      try {
        const result = await send(`\`\`\`python\nprint(${n} * 3)\n\`\`\``);
        latencies.push(result.totalMs);
        const output = result.output as { status?: string; stdout?: string } | undefined;
        if (output?.status !== "completed" || output.stdout !== `${n * 3}\n`) {
          lost++;
          if (failures.length < 5) failures.push(JSON.stringify(output ?? null).slice(0, 300));
        }
      } catch (error) {
        lost++;
        if (failures.length < 5) failures.push(String(error).slice(0, 300));
      }
      completed++;
      if (completed % every === 0) {
        const at = completed;
        checkpoint = checkpoint.then(async () => void memory.push(await memoryAt(at)));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, browser));
  const seconds = (performance.now() - started) / 1000;
  await checkpoint;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send({ type: "close" });
  await exited;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    runs,
    concurrency,
    seconds,
    runsPerSecond: runs / seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    lost,
    failures,
    memory,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.env.SOAK_RUNS ?? 3000);
  console.log(JSON.stringify(await soak({ runs, every: Math.max(1, Math.floor(runs / 6)) }), null, 2));
  process.exit(0);
}
