import { failureFitsStderr } from "../contract/failure-fits.js";
import { isFailure } from "../contract/result-guards.js";
import type { ExecuteCodeResult } from "../contract/index.js";
import type { ExecuteCodeRunner, ExecuteCodeRunOptions } from "../contract/runner.js";
import { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS, DEFAULT_TIMEOUT_MS } from "../contract/limits.js";
import { RUN_PROGRAM_PY } from "../contract/run-program-py.js";
import { CappedText, truncationOf } from "../contract/truncate.js";
import type { RunMessage, WarmMessage, WorkerMessage } from "./protocol.js";
import { workerMain } from "./worker-main.js";

const DEFAULT_START_TIMEOUT_MS = 120_000;

/** Options of a run: the kit's one runner's (`ExecuteCodeRunOptions`). */
export type ClientRunOptions = ExecuteCodeRunOptions;

/** The kit's one runner (`ExecuteCodeRunner`), with an interpreter to load ahead and to end. */
export interface ClientExecutor extends ExecuteCodeRunner {
  /** The longest a run may take, counted once Python has started. */
  readonly timeoutMs: number;
  /** Starts loading Python now, so the first run does not wait for it. */
  preload(): void;
  /** Ends the interpreter waiting for the next run. */
  close(): void;
}

export interface PyodideWorkerExecutorOptions {
  /**
   * Where the app serves the files of the `pyodide` package (pyodide.mjs,
   * pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json),
   * on its own origin; relative to the page.
   * @default `/pyodide/`
   */
  indexURL?: string;
  /**
   * Longest run before the worker is ended, counted once Python has started.
   * @default 60 s
   */
  timeoutMs?: number;
  /**
   * Longest wait for Pyodide to load before a run is given up as
   * `client_unavailable`. The first load fetches and compiles a large
   * WebAssembly module, which takes many seconds on a slow or busy device.
   * Default 120 s.
   */
  startTimeoutMs?: number;
  maxStdoutChars?: number;
  maxStderrChars?: number;
  /**
   * Makes the worker. By default a module worker from the kit's own source
   * text, through a `data:` URL, which gives it an opaque origin: the
   * program cannot send the page's cookies or read its API. A worker made
   * here from a file of the page's own origin runs with the page's rights.
   */
  createWorker?: () => Worker;
}

// The worker's script (a module worker): `workerMain`, called with the worker's own scope and the Python
// that runs a program. The `import()` sits in this string, where no host bundler sees it and tries to
// resolve or wrap it.
const workerSource = `(${workerMain.toString()})(self, (url) => import(url), ${JSON.stringify(RUN_PROGRAM_PY)});`;
// A data: URL gives the worker an opaque origin of its own: the program's requests carry none of the page's cookies.
const workerURL = `data:text/javascript;charset=utf-8,${encodeURIComponent(workerSource)}`;
const defaultWorker = () => new Worker(workerURL, { type: "module" });

/**
 * Python in the browser: each run gets an interpreter no earlier run has
 * touched, in a Web Worker of its own, ended when the run ends or runs too
 * long. The next interpreter starts loading while the page is idle, so a run
 * does not wait for Pyodide after the first.
 */
export function createPyodideWorkerExecutor(options: PyodideWorkerExecutorOptions = {}): ClientExecutor {
  // Absolute, with a final slash: the worker has no base of its own to resolve against.
  // Read when a worker starts, not here, so the executor can be made where there is no document (a server render).
  const indexURL = () => new URL(options.indexURL ?? "/pyodide/", document.baseURI).href.replace(/\/?$/, "/");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const limits = {
    stdout: options.maxStdoutChars ?? DEFAULT_MAX_STDOUT_CHARS,
    stderr: options.maxStderrChars ?? DEFAULT_MAX_STDERR_CHARS,
  };
  const createWorker = options.createWorker ?? defaultWorker;
  let spare: Worker | null = null;
  let closed = false;

  const warmWorker = () => {
    const worker = createWorker();
    worker.postMessage({ type: "warm", indexURL: indexURL() } satisfies WarmMessage);
    return worker;
  };

  return {
    timeoutMs,
    reportsStart: true,
    run(code, { signal, onOutput, onStart } = {}) {
      if (closed) return Promise.reject(new Error("The executor is closed."));
      const worker = spare ?? warmWorker();
      spare = null;
      const stdout = new CappedText(limits.stdout);
      const stderr = new CappedText(limits.stderr);
      let started = performance.now();
      return new Promise<ExecuteCodeResult>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (result: ExecuteCodeResult | Error) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          worker.terminate();
          if (!closed) spare = warmWorker();
          if (result instanceof Error) reject(result);
          else resolve(result);
        };
        const output = () => ({
          stdout: stdout.text,
          stderr: stderr.text,
          truncated: truncationOf(stdout.kept(), stderr.kept()),
        });
        const onAbort = () => finish(new DOMException("The run was stopped.", "AbortError"));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        // Like the server tool, a run that cannot happen is a result the model and the student can read.
        const unavailable = (reason: string) =>
          finish({
            status: "error",
            code: "client_unavailable",
            message: `Python could not start in this browser: ${reason}`,
          });
        // Loading Pyodide is not the program's time: it gets a limit of its own.
        timer = setTimeout(
          () => unavailable(`it did not load within ${Math.round(startTimeoutMs / 1000)} s.`),
          startTimeoutMs,
        );
        const startClock = () => {
          clearTimeout(timer);
          started = performance.now();
          timer = setTimeout(
            () =>
              finish({
                status: "timeout",
                timeoutMs,
                wallTimeMs: Math.round(performance.now() - started),
                ...output(),
              }),
            timeoutMs,
          );
        };
        worker.onerror = (event) => {
          event.preventDefault();
          unavailable(event.message || "the worker failed to load.");
        };
        worker.onmessage = ({ data }: MessageEvent<WorkerMessage>) => {
          switch (data.type) {
            case "started":
              startClock();
              onStart?.(Date.now());
              break;
            case "output":
              (data.stream === "stdout" ? stdout : stderr).add(data.text);
              onOutput?.(data.stream, data.text);
              break;
            case "done":
              finish({
                status: "completed",
                exitCode: data.exitCode,
                signal: null,
                wallTimeMs: data.wallTimeMs,
                ...output(),
                ...(data.exitCode && isFailure(data.failure) && failureFitsStderr(data.failure, stderr.text)
                  ? { failure: data.failure }
                  : {}),
              });
              break;
            case "failed":
              unavailable(data.message);
              break;
          }
        };
        worker.postMessage({ type: "run", code, indexURL: indexURL() } satisfies RunMessage);
      });
    },
    preload() {
      if (!closed) spare ??= warmWorker();
    },
    close() {
      closed = true;
      spare?.terminate();
      spare = null;
    },
  };
}
