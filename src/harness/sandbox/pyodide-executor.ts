import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import type { Executor, RunOutcome, RunRequest } from "./executor.js";

export interface PyodideExecutorOptions {
  /** Interpreters kept warm; each runs one program at a time. Default 2. */
  poolSize?: number;
  /** Characters kept per stream and run. Default 1 000 000. */
  maxOutputChars?: number;
}

type Message =
  | { type: "ready" }
  | { type: "output"; id: number; stream: "stdout" | "stderr"; text: string }
  | { type: "done"; id: number; exitCode: number; wallTimeMs: number };

const processScript = fileURLToPath(new URL("./pyodide-process.mjs", import.meta.url));
const permissionFlag = process.allowedNodeEnvironmentFlags.has("--permission")
  ? "--permission"
  : "--experimental-permission";

function pyodideDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("pyodide/package.json"));
}

/** A sandbox process with its interpreter loaded, or loading. */
class Interpreter {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  private listeners = new Set<(message: Message) => void>();
  exited = false;
  stderrTail = "";

  constructor(pyodideDir: string, maxOutputChars: number) {
    this.child = spawn(
      process.execPath,
      [
        permissionFlag,
        "--allow-worker",
        `--allow-fs-read=${pyodideDir}/`,
        `--allow-fs-read=${path.dirname(processScript)}/`,
        "--disable-warning=ExperimentalWarning",
        processScript,
        pyodideDir,
        String(maxOutputChars),
      ],
      { env: {}, stdio: ["pipe", "pipe", "pipe"] },
    );
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    readline.createInterface({ input: this.child.stdout! }).on("line", (line) => {
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        return;
      }
      for (const listener of this.listeners) listener(message);
    });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: Message) => {
        if (message.type !== "ready") return;
        this.listeners.delete(onMessage);
        resolve();
      };
      this.listeners.add(onMessage);
      this.child.once("exit", (code, signal) => {
        this.exited = true;
        reject(new Error(`The Python sandbox process exited while starting (${signal ?? code}): ${this.stderrTail}`));
      });
    });
    this.ready.catch(() => undefined);
  }

  on(listener: (message: Message) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  kill(): void {
    this.exited = true;
    this.child.kill("SIGKILL");
  }
}

/**
 * Runs Python for real in Pyodide (CPython compiled to WebAssembly, shipped by
 * the `pyodide` npm package: works offline). Each interpreter lives in its own
 * process with no access to the host's files, processes, network modules or
 * environment; a fresh namespace per run; stdout and stderr apart; exit codes
 * and uncaught exceptions as a real interpreter reports them. A run past its
 * time limit ends its process, and a fresh one takes its place.
 */
export function createPyodideExecutor(options: PyodideExecutorOptions = {}): Executor {
  const poolSize = Math.max(1, options.poolSize ?? 2);
  const maxOutputChars = options.maxOutputChars ?? 1_000_000;
  const pyodideDir = pyodideDirectory();
  const idle: Interpreter[] = [];
  const waiting: Array<{ resolve: (interpreter: Interpreter) => void; reject: (error: Error) => void }> = [];
  const all = new Set<Interpreter>();
  let closed = false;
  let nextId = 1;

  const start = () => {
    if (closed) return;
    const interpreter = new Interpreter(pyodideDir, maxOutputChars);
    all.add(interpreter);
    interpreter.child.once("exit", () => {
      all.delete(interpreter);
      const at = idle.indexOf(interpreter);
      if (at !== -1) {
        idle.splice(at, 1);
        start();
      }
    });
    interpreter.ready.then(
      () => release(interpreter),
      () => setTimeout(start, 1000).unref(),
    );
  };
  const release = (interpreter: Interpreter) => {
    if (interpreter.exited) return;
    const next = waiting.shift();
    if (next) next.resolve(interpreter);
    else idle.push(interpreter);
  };
  const acquire = () =>
    new Promise<Interpreter>((resolve, reject) => {
      if (closed) return reject(new Error("The Python executor is closed."));
      const interpreter = idle.shift();
      if (interpreter) resolve(interpreter);
      else waiting.push({ resolve, reject });
    });

  for (let i = 0; i < poolSize; i++) start();

  return {
    async run({ code, timeoutMs, signal }: RunRequest): Promise<RunOutcome> {
      const interpreter = await acquire();
      const id = nextId++;
      const started = performance.now();
      const output = { stdout: "", stderr: "" };

      return new Promise<RunOutcome>((resolve) => {
        let settled = false;
        const finish = (outcome: Omit<RunOutcome, "stdout" | "stderr">, replace: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          stopListening();
          interpreter.child.off("exit", onExit);
          if (replace) {
            interpreter.kill();
            start();
          } else {
            release(interpreter);
          }
          resolve({ ...output, ...outcome });
        };
        const elapsed = () => Math.round(performance.now() - started);
        const onAbort = () =>
          finish({ exitCode: null, signal: "SIGKILL", wallTimeMs: elapsed(), timedOut: false }, true);
        const onExit = (_code: number | null, exitSignal: NodeJS.Signals | null) => {
          output.stderr += `\nThe Python interpreter stopped unexpectedly (${exitSignal ?? _code}).\n`;
          finish({ exitCode: null, signal: exitSignal ?? null, wallTimeMs: elapsed(), timedOut: false }, true);
        };
        const timer = setTimeout(
          () => finish({ exitCode: null, signal: "SIGKILL", wallTimeMs: elapsed(), timedOut: true }, true),
          timeoutMs,
        );
        const stopListening = interpreter.on((message) => {
          if (message.type === "output" && message.id === id) output[message.stream] += message.text;
          if (message.type === "done" && message.id === id) {
            finish({ exitCode: message.exitCode, signal: null, wallTimeMs: message.wallTimeMs, timedOut: false }, false);
          }
        });
        interpreter.child.once("exit", onExit);
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        interpreter.child.stdin!.write(`${JSON.stringify({ id, code })}\n`);
      });
    },
    async close() {
      closed = true;
      for (const interpreter of all) interpreter.kill();
      // Runs still waiting for an interpreter fail rather than hang.
      for (const { reject } of waiting.splice(0)) reject(new Error("The Python executor is closed."));
    },
  };
}
