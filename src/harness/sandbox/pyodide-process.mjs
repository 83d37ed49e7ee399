// One sandbox process: a warm Pyodide interpreter that runs one program at a
// time. The parent starts it under Node's permission model (read access to
// Pyodide's files only, no writes, no child processes, no addons) with an
// empty environment. Protocol: JSON lines; programs arrive on stdin, output
// chunks and results leave on stdout (written synchronously, so the output so
// far survives when the parent ends a run that is taking too long).
import fs from "node:fs";
import { register } from "node:module";
import os from "node:os";
import readline from "node:readline";
import { MessageChannel } from "node:worker_threads";

const [pyodideDir, maxOutputArg] = process.argv.slice(2);
const maxOutput = Number(maxOutputArg) || 1_000_000;
const send = (message) => fs.writeSync(1, `${JSON.stringify(message)}\n`);

const { port1, port2 } = new MessageChannel();
register(new URL("./pyodide-hooks.mjs", import.meta.url), { data: { port: port2 }, transferList: [port2] });

// Pyodide's file-system module reads fs constants through process.binding,
// which the permission model forbids: hand it the public constants instead.
const binding = process.binding;
process.binding = (name) => (name === "constants" ? { fs: fs.constants, os: os.constants } : binding.call(process, name));

const { loadPyodide } = await import(new URL("pyodide.mjs", `file://${pyodideDir}/`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: Object.create(null) });

await new Promise((resolve) => {
  port1.once("message", resolve);
  port1.postMessage("lock");
});
port1.close();
for (const name of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest"]) delete globalThis[name];
process.kill = () => {
  throw new Error("Not allowed in the sandbox.");
};
process._kill = process.kill;

// The js and pyodide_js modules lead straight to JavaScript: take them away.
// (JavaScript reached some other way is still held by the locks above.)
for (const name of ["js", "pyodide_js"]) pyodide.unregisterJsModule(name);

pyodide.runPython(`
import sys, traceback, linecache
for name in ("js", "pyodide_js"):
    sys.modules.pop(name, None)

sys.stdout.reconfigure(line_buffering=True)
sys.stderr.reconfigure(line_buffering=True)

def __sandbox_run(source):
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    # Tracebacks quote the program's lines, as they do for a file.
    linecache.cache["<exec>"] = (len(source), None, source.splitlines(True), "<exec>")
    try:
        exec(compile(source, "<exec>", "exec"), namespace)
        status = 0
    except SystemExit as exit:
        code = exit.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code & 0xFF
        else:
            print(code, file=sys.stderr)
            status = 1
    except BaseException as error:
        tb = error.__traceback__
        if tb is not None and tb.tb_frame.f_code.co_name == "__sandbox_run":
            tb = tb.tb_next
        traceback.print_exception(type(error), error, tb)
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return status
`);
const runProgram = pyodide.globals.get("__sandbox_run");

let current = null;
// Each write goes out at once, so a run that is ended for taking too long
// still reports everything it printed until then.
function writer(stream) {
  const decoder = new TextDecoder();
  return {
    write(bytes) {
      if (!current) return bytes.length;
      const room = maxOutput - current.sizes[stream];
      if (room > 0) {
        const text = decoder.decode(bytes, { stream: true });
        const kept = text.length > room ? text.slice(0, room) : text;
        current.sizes[stream] += kept.length;
        if (kept) send({ type: "output", id: current.id, stream, text: kept });
      }
      return bytes.length;
    },
  };
}
pyodide.setStdout(writer("stdout"));
pyodide.setStderr(writer("stderr"));
pyodide.setStdin({ stdin: () => null });

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { id, code } = JSON.parse(line);
  current = { id, sizes: { stdout: 0, stderr: 0 } };
  const started = performance.now();
  let exitCode;
  try {
    exitCode = runProgram(code);
  } catch (error) {
    send({ type: "output", id, stream: "stderr", text: `${error?.message ?? error}\n` });
    exitCode = 1;
  }
  send({ type: "done", id, exitCode, wallTimeMs: Math.round(performance.now() - started) });
  current = null;
});
lines.on("close", () => process.exit(0));
send({ type: "ready" });
