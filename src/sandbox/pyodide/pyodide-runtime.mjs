// What the snapshot maker and every interpreter process share: loading
// Pyodide under Node's permission model, the Python that runs a program, and
// the import lock. Plain JavaScript: it runs in the sandbox processes as is.
import fs from "node:fs";
import * as nodeModule from "node:module";
import os from "node:os";

// Pyodide's file-system module reads fs constants through process.binding,
// which the permission model forbids: hand it the public constants instead.
export function shimProcessBinding() {
  const binding = process.binding;
  process.binding = (name) =>
    name === "constants" ? { fs: fs.constants, os: os.constants } : binding.call(process, name);
}

/** Cold start (for the snapshot) or a start from a memory snapshot. */
export async function loadInterpreter(pyodideDir, options = {}) {
  const { loadPyodide } = await import(new URL("pyodide.mjs", `file://${pyodideDir}/`).href);
  // An empty object for the `js` module: Python gets no handle on this process's globals.
  return loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: Object.create(null), ...options });
}

// Runs once before the snapshot is taken, so every interpreter starts with it.
export const PREPARE_PYTHON = `
import sys, traceback, linecache, random

def __sandbox_fresh():
    # No handle on JavaScript: the js and pyodide_js modules and their
    # submodules (pyodide_js._api reaches the file system) are gone.
    for name in [m for m in sys.modules if m in ("js", "pyodide_js") or m.startswith(("js.", "pyodide_js."))]:
        sys.modules.pop(name, None)
    # The snapshot carries the random state it was taken with: every run reseeds from the kernel.
    random.seed()

__sandbox_fresh()

sys.stdout.reconfigure(line_buffering=True)
sys.stderr.reconfigure(line_buffering=True)

# os.system would reach for Node's child_process, which the sandbox refuses
# (see lockImports): say so the way subprocess does, instead of a stack dump.
# Compiled as a "frozen" module, as CPython names its built-in ones, so that
# no traceback frame of it is taken for a line of the program.
import os, errno
_defined = {"errno": errno}
exec(compile(
    "def system(command):\\n"
    "    raise OSError(errno.ENOTSUP, 'The sandbox cannot start processes (os.system)')\\n",
    "<frozen sandbox>", "exec"), _defined)
os.system = _defined["system"]
del _defined

`;

/**
 * What runs a program: the shared run_program (contract/run-program-py.ts, given by the parent) with a fresh
 * start. It answers JSON: the exit status, and why the program failed where it raised.
 */
export const runnerPython = (runProgramPy) => `${runProgramPy}
import json as __sandbox_json
def __sandbox_run(source):
    __sandbox_fresh()
    facts = {}
    try:
        status = run_program(source, {"__name__": "__main__", "__builtins__": __builtins__}, facts)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return __sandbox_json.dumps({"code": status, "failure": facts or None})
`;

/** The js and pyodide_js modules lead straight to JavaScript: take them away. */
export function removeJsModules(pyodide) {
  for (const name of ["js", "pyodide_js"]) pyodide.unregisterJsModule(name);
}

/**
 * Once the interpreter has loaded, no module can be imported any more. A
 * second layer only: the process has no network, no files to speak of, and
 * cannot compile JavaScript from strings.
 */
export function lockImports() {
  // Node before 22.15 has no in-thread hooks; the other layers still hold there.
  if (typeof nodeModule.registerHooks !== "function") return;
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      // The kernel's randomness, which Emscripten's random device reads through
      // node:crypto: os.urandom, secrets and uuid4 need it.
      if (specifier === "node:crypto" || specifier === "crypto") return nextResolve(specifier, context);
      const error = new Error(`Importing modules is not allowed in the sandbox (${specifier}).`);
      error.code = "ERR_SANDBOX_LOCKED";
      throw error;
    },
  });
}
