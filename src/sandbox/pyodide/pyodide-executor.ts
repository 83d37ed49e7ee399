// Over 300 lines: one engine (a pool of fresh interpreter processes, its
// queue and its snapshot) whose parts share the pool's state.

import os from "node:os";
import path from "node:path";
import type { Executor, RunOutcome, RunRequest } from "../executor.js";
import { interpreterScript, pyodideDirectory, sandboxCommand, type MemoryLimits } from "./interpreter-command.js";
import { InterpreterProcess } from "./interpreter-process.js";
import { probeIsolation, type Isolation } from "./isolation.js";
import { canWatchMemory } from "./process-memory.js";
import { prepareSnapshot, type Snapshot } from "./snapshot-cache.js";

export interface PyodideExecutorOptions {
  /**
   * Interpreters started ahead and kept waiting for a program.
   * @default 2
   */
  poolSize?: number;
  /**
   * Programs running at once; more wait their turn.
   * @default 4
   */
  maxConcurrentRuns?: number;
  /**
   * Characters kept per stream and run; the rest is cut and counted.
   * @default 1 000 000
   */
  maxOutputChars?: number;
  /**
   * Memory of one run's process, in MB. Python's WebAssembly memory gets this
   * less 256 MB (past it, Python raises MemoryError); the JavaScript heap 128 MB;
   * the whole process is stopped past this figure.
   * @default 768
   */
  memoryLimitMb?: number;
  /**
   * Where the Python memory snapshot is kept between starts (a private folder), or false.
   * @default under the OS temp folder
   */
  snapshotCacheDir?: string | false;
  /** Refuse to start without network isolation (Linux namespaces) instead of warning. */
  requireIsolation?: boolean;
  /**
   * Told what isolation is missing on this machine, once at start.
   * @default console.warn
   */
  onWarning?: (message: string) => void;
  /**
   * Files a run may leave in its working directory; the rest are counted, not kept.
   * @default 10
   */
  maxFiles?: number;
  /**
   * Largest file kept, in MB.
   * @default 5
   */
  maxFileMb?: number;
  /**
   * All files of one run together, in MB.
   * @default 10
   */
  maxTotalFileMb?: number;
}

const JS_HEAP_MB = 128;
const RUNTIME_OVERHEAD_MB = 256;
/** How long the sandbox is to be quiet before a spare interpreter is started. */
const IDLE_REFILL_MS = 25;

/** A first-in, first-out queue of callers waiting for something, each able to give up. */
class Waiters<T> {
  private queue: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  get length() {
    return this.queue.length;
  }
  wait(signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry = {
        resolve: (value: T) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error: Error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        this.queue = this.queue.filter((e) => e !== entry);
        reject(new Error("aborted"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(entry);
    });
  }
  next() {
    return this.queue.shift();
  }
  rejectAll(error: Error) {
    for (const entry of this.queue.splice(0)) entry.reject(error);
  }
}

/**
 * Runs Python for real in Pyodide (CPython compiled to WebAssembly, shipped by
 * the `pyodide` npm package: works offline), each program in a process of its
 * own that no earlier program touched and that is killed when the program
 * ends, so nothing a program leaves behind (modules, builtins, files, timers,
 * threads) reaches the next one. Processes start from a memory snapshot in a
 * few hundred milliseconds, and a pool keeps some started ahead.
 *
 * Each process runs under Node's permission model with an empty environment,
 * cannot compile JavaScript from strings, has its heap and WebAssembly memory
 * capped and its resident memory watched; on Linux it also runs in namespaces
 * of its own (no network but a downed loopback, no view of host processes)
 * and is killed by the kernel if the parent dies.
 */
export function createPyodideExecutor(options: PyodideExecutorOptions = {}): Executor {
  const poolSize = Math.max(1, options.poolSize ?? 2);
  const maxConcurrentRuns = Math.max(1, options.maxConcurrentRuns ?? 4);
  const maxOutputChars = options.maxOutputChars ?? 1_000_000;
  const fileCaps = {
    maxFiles: options.maxFiles ?? 10,
    maxFileBytes: (options.maxFileMb ?? 5) * 1024 * 1024,
    maxTotalFileBytes: (options.maxTotalFileMb ?? 10) * 1024 * 1024,
  };
  const memoryLimitMb = options.memoryLimitMb ?? 768;
  const memory: MemoryLimits = { jsHeapMb: JS_HEAP_MB, wasmMb: Math.max(64, memoryLimitMb - RUNTIME_OVERHEAD_MB) };
  const pyodideDir = pyodideDirectory();
  const isolation: Isolation = probeIsolation();
  const watchesMemory = canWatchMemory();
  const warnings = [
    ...isolation.warnings,
    ...(watchesMemory
      ? []
      : ["Process memory cannot be watched here (no /proc): only the heap and WebAssembly caps hold."]),
  ];
  if (options.requireIsolation && !isolation.network) {
    throw new Error(`The Python sandbox requires network isolation: ${isolation.warnings.join(" ")}`);
  }
  const warn = options.onWarning ?? ((message: string) => console.warn(`[execute-code-ui sandbox] ${message}`));
  for (const warning of warnings) warn(warning);

  const ready: InterpreterProcess[] = [];
  const live = new Set<InterpreterProcess>();
  const forInterpreter = new Waiters<InterpreterProcess>();
  const forSlot = new Waiters<void>();
  let starting = 0;
  let running = 0;
  let failures = 0;
  let closed = false;
  let snapshot: Snapshot | null = null;
  let snapshotError: Error | null = null;
  const stopMaking = new AbortController();
  const snapshotReady = prepareSnapshot({
    signal: stopMaking.signal,
    pyodideDir,
    isolation,
    memory,
    cacheDir: options.snapshotCacheDir ?? path.join(os.tmpdir(), `execute-code-ui-${process.getuid?.() ?? "user"}`),
  }).then(
    (made) => {
      snapshot = made;
      if (closed) made.dispose();
      fill();
    },
    (error: Error) => {
      snapshotError = error;
      forInterpreter.rejectAll(error);
    },
  );

  const fill = () => {
    if (closed || !snapshot) return;
    const wanted = poolSize + forInterpreter.length;
    while (ready.length + starting < wanted && starting < poolSize) start(snapshot.path);
  };

  const start = (snapshotPath: string) => {
    starting++;
    const interpreter = new InterpreterProcess(
      sandboxCommand({
        isolation,
        script: interpreterScript,
        args: [pyodideDir, snapshotPath, String(maxOutputChars), JSON.stringify(fileCaps)],
        readable: [`${pyodideDir}/`, `${path.dirname(interpreterScript)}/`, snapshotPath],
        memory,
      }),
      {
        maxOutputChars,
        files: fileCaps,
        memoryLimitBytes: watchesMemory ? memoryLimitMb * 1024 * 1024 : null,
        jsHeapMb: JS_HEAP_MB,
      },
    );
    live.add(interpreter);
    interpreter.onExit(() => {
      live.delete(interpreter);
      const at = ready.indexOf(interpreter);
      // A waiting interpreter died: replace it. One that ran a program is replaced when its run ends.
      if (at !== -1) {
        ready.splice(at, 1);
        fill();
      }
    });
    interpreter.ready.then(
      () => {
        starting--;
        failures = 0;
        if (closed) return;
        // Ready and gone at once: start another in its place.
        if (interpreter.exited) return void fill();
        const waiter = forInterpreter.next();
        if (waiter) {
          waiter.resolve(interpreter);
          // The next start waits until this program has been handed over.
          setImmediate(fill);
        } else {
          ready.push(interpreter);
          fill();
        }
      },
      (error: Error) => {
        starting--;
        failures++;
        // A sandbox that cannot start interpreters answers with the reason instead of hanging.
        if (failures >= 3) forInterpreter.next()?.reject(error);
        setTimeout(fill, Math.min(failures, 5) * 500).unref();
      },
    );
  };

  const takeSlot = async (signal: AbortSignal) => {
    if (running < maxConcurrentRuns) running++;
    else await forSlot.wait(signal); // the slot is handed over with running unchanged
  };
  const releaseSlot = () => {
    const next = forSlot.next();
    if (next) next.resolve();
    else running--;
  };
  const takeInterpreter = (signal: AbortSignal): Promise<InterpreterProcess> => {
    if (closed) return Promise.reject(new Error("The Python executor is closed."));
    if (snapshotError) return Promise.reject(snapshotError);
    const interpreter = ready.shift();
    const taken = interpreter ? Promise.resolve(interpreter) : forInterpreter.wait(signal);
    // The pool is empty: start one now, but after this program has been handed over.
    if (ready.length === 0) setImmediate(fill);
    return taken;
  };

  // Starting a process blocks this thread for a few milliseconds (the kernel
  // copies the page tables of this, larger, process), and every answer and
  // chat stream waits behind it. While an interpreter is still ready, refill
  // once the sandbox has been quiet for a moment instead of right after a run.
  let idleRefill: NodeJS.Timeout | undefined;
  const refillWhenQuiet = () => {
    clearTimeout(idleRefill);
    if (ready.length === 0 || forInterpreter.length > 0) return void setImmediate(fill);
    idleRefill = setTimeout(fill, IDLE_REFILL_MS);
    idleRefill.unref();
  };

  const abortedWhileWaiting = (): RunOutcome => ({
    stdout: "",
    stderr: "",
    exitCode: null,
    signal: "SIGKILL",
    wallTimeMs: 0,
    timedOut: false,
  });

  return {
    async run(request: RunRequest): Promise<RunOutcome> {
      if (closed) throw new Error("The Python executor is closed.");
      try {
        await takeSlot(request.signal);
      } catch (error) {
        if (request.signal.aborted) return abortedWhileWaiting();
        throw error;
      }
      try {
        let interpreter: InterpreterProcess;
        try {
          interpreter = await takeInterpreter(request.signal);
        } catch (error) {
          if (request.signal.aborted) return abortedWhileWaiting();
          throw error;
        }
        return await interpreter.run(request);
      } finally {
        releaseSlot();
        refillWhenQuiet();
      }
    },
    health() {
      return {
        executor: "pyodide",
        isolation: {
          network: isolation.network ? "none: own network namespace, loopback down" : "host network (not isolated)",
          processes: isolation.processes ? "own PID namespace" : "host processes visible",
          diesWithParent: isolation.diesWithParent,
          memoryWatch: watchesMemory,
          warnings,
        },
        limits: { memoryLimitMb, wasmMemoryMb: memory.wasmMb, jsHeapMb: memory.jsHeapMb, maxOutputChars },
        pool: {
          size: poolSize,
          ready: ready.length,
          starting,
          running,
          waiting: forInterpreter.length + forSlot.length,
        },
        // Process ids as the host sees them (each the wrapper of one interpreter), for operators and tests.
        interpreters: [...live].map((interpreter) => ({ pid: interpreter.pid, state: interpreter.state })),
        snapshot: snapshotError
          ? { state: "failed", error: (snapshotError as Error).message }
          : snapshot
            ? { state: "ready", madeInMs: (snapshot as Snapshot).madeInMs }
            : { state: "making" },
      };
    },
    async close() {
      closed = true;
      clearTimeout(idleRefill);
      stopMaking.abort();
      for (const interpreter of live) interpreter.kill();
      const error = new Error("The Python executor is closed.");
      forInterpreter.rejectAll(error);
      forSlot.rejectAll(error);
      (snapshot as Snapshot | null)?.dispose();
      await snapshotReady;
    },
  };
}
