// Makes the memory snapshot every interpreter process starts from: a cold
// Pyodide start with the sandbox's Python prepared, written to one file. Runs
// under the same permission model as the interpreters, plus write access to
// that one file; it runs no program.
import fs from "node:fs";
import { loadInterpreter, PREPARE_PYTHON, runnerPython, shimProcessBinding } from "./pyodide-runtime.mjs";

const [pyodideDir, snapshotPath, runProgramPy] = process.argv.slice(2);
shimProcessBinding();
const pyodide = await loadInterpreter(pyodideDir, { _makeSnapshot: true });
pyodide.runPython(PREPARE_PYTHON + runnerPython(runProgramPy));
fs.writeFileSync(snapshotPath, pyodide.makeMemorySnapshot());
process.exit(0);
