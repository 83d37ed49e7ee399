/// <reference lib="webworker" />
import type { PyodideAPI } from "pyodide";
import type { RunMessage, WarmMessage, WorkerMessage } from "./protocol.js";

/**
 * The body of the Pyodide worker: one Python run, with Pyodide loaded from
 * the app's own origin (no CDN) and the output streamed back as it is
 * written. The page ends the worker after the run, or to stop it.
 *
 * It runs as a module worker (Pyodide refuses classic ones), started from
 * its own source text (pyodide-worker-executor.ts), so it must stay
 * self-contained: nothing from outside this function but its arguments, type imports aside.
 * That spares every host bundler the question of how a library's worker
 * file gets emitted.
 */
export function workerMain(
  scope: DedicatedWorkerGlobalScope,
  importModule: (url: string) => Promise<unknown>,
  runProgramPy: string,
) {
  const post = (message: WorkerMessage) => scope.postMessage(message);

  // The shared run_program (contract/run-program-py.ts), given as text: SystemExit and uncaught exceptions
  // become an exit code and a traceback on stderr, as in the sandbox. It answers JSON: the exit code, and
  // why the program failed where it raised.
  const runner = [
    "import sys, traceback, json as __ecu_json",
    runProgramPy,
    "def __ecu_run(source):",
    "    facts = {}",
    "    try:",
    '        status = run_program(source, {"__name__": "__main__"}, facts)',
    "    finally:",
    "        sys.stdout.flush()",
    "        sys.stderr.flush()",
    '    return __ecu_json.dumps({"code": status, "failure": facts or None})',
  ].join("\n");

  let pyodide: Promise<PyodideAPI> | null = null;

  const load = (indexURL: string) =>
    (pyodide ??= (async () => {
      // Pyodide 314 starts only in a module worker, from its ES module.
      const { loadPyodide } = (await importModule(`${indexURL}pyodide.mjs`)) as typeof import("pyodide");
      const api = await loadPyodide({ indexURL });
      const stream = (name: "stdout" | "stderr") => {
        // One decoder per stream: a character split across two writes stays whole.
        const decoder = new TextDecoder();
        return {
          write: (bytes: Uint8Array) => {
            post({ type: "output", stream: name, text: decoder.decode(bytes, { stream: true }) });
            return bytes.length;
          },
        };
      };
      api.setStdout(stream("stdout"));
      api.setStderr(stream("stderr"));
      api.runPython(runner);
      return api;
    })());

  // contract/error-message.ts's errorMessage, written out: this function's source text alone is the worker.
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
  scope.onmessage = async (event: MessageEvent<RunMessage | WarmMessage>) => {
    const message = event.data;
    try {
      const api = await load(message.indexURL).catch((error: unknown) => {
        // This worker's origin is opaque: the files are read cross-origin.
        throw new Error(
          `Python could not be loaded from ${message.indexURL} (${messageOf(error)}). Those files must be served with Access-Control-Allow-Origin: *.`,
        );
      });
      if (message.type === "warm") return post({ type: "ready" });
      const run = api.globals.get("__ecu_run") as (source: string) => string;
      post({ type: "started" });
      const start = performance.now();
      const { code: exitCode, failure } = JSON.parse(run(message.code)) as { code: number; failure: unknown };
      post({ type: "done", exitCode, wallTimeMs: Math.round(performance.now() - start), failure });
    } catch (error) {
      post({ type: "failed", message: messageOf(error) });
    }
  };
}
