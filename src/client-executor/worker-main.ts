/// <reference lib="webworker" />
import type { PyodideAPI } from "pyodide";
import type { RunMessage, WarmMessage, WorkerMessage } from "./protocol.js";

/**
 * The body of the Pyodide worker: one Python run, with Pyodide loaded from
 * the app's own origin (no CDN) and the output streamed back as it is
 * written. The page ends the worker after the run, or to stop it.
 *
 * It runs as a module worker (Pyodide refuses classic ones), started from
 * its own source text (`workerSource`), so it must stay
 * self-contained: nothing from outside this function, type imports aside.
 * That spares every host bundler the question of how a library's worker
 * file gets emitted.
 */
export function workerMain(scope: DedicatedWorkerGlobalScope, importModule: (url: string) => Promise<unknown>) {
  const post = (message: WorkerMessage) => scope.postMessage(message);

  // Runs the program as `<exec>`, as the sandbox does, and turns SystemExit
  // and uncaught exceptions into an exit code and a traceback on stderr.
  const runner = [
    "import sys, traceback",
    "def __ecu_run(source):",
    "    try:",
    '        exec(compile(source, "<exec>", "exec"), {"__name__": "__main__"})',
    "        return 0",
    "    except SystemExit as exit:",
    "        code = exit.code",
    "        if code is None:",
    "            return 0",
    "        if isinstance(code, int):",
    "            return code",
    "        print(code, file=sys.stderr)",
    "        return 1",
    "    except BaseException:",
    "        etype, value, tb = sys.exc_info()",
    "        traceback.print_exception(etype, value, tb.tb_next)",
    '        if etype is EOFError and str(value) == "EOF when reading a line":',
    '            print("input() cannot read typed input here: put the values in the program.", file=sys.stderr)',
    "        return 1",
    "    finally:",
    "        sys.stdout.flush()",
    "        sys.stderr.flush()",
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
      const run = api.globals.get("__ecu_run") as (source: string) => number;
      post({ type: "started" });
      const start = performance.now();
      const exitCode = run(message.code);
      post({ type: "done", exitCode, wallTimeMs: Math.round(performance.now() - start) });
    } catch (error) {
      post({ type: "failed", message: messageOf(error) });
    }
  };
}

/**
 * The worker's script (a module worker): `workerMain`, called with the
 * worker's own scope. The `import()` sits in this string, where no host
 * bundler sees it and tries to resolve or wrap it.
 */
export const workerSource = `(${workerMain.toString()})(self, (url) => import(url));`;
