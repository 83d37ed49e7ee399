// execute-code-ui/sandbox: the sandbox service alone (codeapi's POST /v1/exec
// with its CPython and Pyodide engines), for a course that deploys it without
// the harness's chat, model and demo. It loads Node's built-ins and the kit's
// dependencies, none of its optional peers (the Pyodide engine looks for
// `pyodide` when it starts). Built to dist/sandbox/, beside the engines'
// process scripts; the harness uses these modules too.

// Before anything else loads: a Node too old is told so at start.
import "../server/require-node.js";

export {
  createSandbox,
  DEFAULT_SANDBOX_RATE_LIMIT,
  type SandboxOptions,
} from "./service.js";
export {
  startSandbox,
  type StartSandboxOptions,
  type StartedSandbox,
} from "./start-sandbox.js";
export {
  createMockSandbox,
  startMockSandbox,
  type MockSandboxOptions,
  type StartedMockSandbox,
  type StartMockSandboxOptions,
} from "./renamed.js";
export { createPyodideExecutor, type PyodideExecutorOptions } from "./pyodide/pyodide-executor.js";
export {
  createCpythonExecutor,
  probeCpython,
  type CpythonAvailability,
  type CpythonExecutorOptions,
} from "./cpython/cpython-executor.js";
export {
  createDefaultExecutor,
  type DefaultExecutorOptions,
  type SandboxEngine,
} from "./default-executor.js";
export { createScriptedExecutor, type ScriptedAnswer, type ScriptedChunk } from "./scripted-executor.js";
export type {
  Executor,
  OutputStream,
  RunFileOutput,
  RunOutcome,
  RunRequest,
  SandboxFault,
} from "./executor.js";
export type { RateLimit } from "./rate-limiter.js";
export type { RunSchedule } from "./run-scheduler.js";
