// Before anything else loads: a Node too old is told so at start.
import "../server/require-node.js";

export {
  DEFAULT_CHAT_RATE_LIMIT,
  DEFAULT_HARNESS_STORED_BYTES,
  startHarness,
  type HarnessOptions,
  type RunningHarness,
} from "./harness-server.js";
export { createChatHandler, type ChatHandlerOptions } from "./chat-handler.js";
export { checkSameOrigin, checkSameOriginJson } from "./request-guard.js";
export { HttpRefusal } from "../server/http.js";
export { createPyodideFileHandler } from "./pyodide-files.js";
export {
  createParticipantCookies,
  DEFAULT_NEW_PARTICIPANT_DAILY_LIMIT,
  DEFAULT_NEW_PARTICIPANT_LIMIT,
  type ParticipantCookieOptions,
} from "./participant-cookie.js";
export { modelFromEnv, ModelEnvError, type ModelEnv } from "./model-from-env.js";
export { createScriptedModel, type ScriptedModelOptions } from "./scripted-model.js";
export { createMockSandbox, DEFAULT_SANDBOX_RATE_LIMIT, type MockSandboxOptions } from "./sandbox/mock-sandbox.js";
export {
  startMockSandbox,
  type StartMockSandboxOptions,
  type StartedMockSandbox,
} from "./sandbox/start-mock-sandbox.js";
export { createPyodideExecutor, type PyodideExecutorOptions } from "./sandbox/pyodide-executor.js";
export {
  createCpythonExecutor,
  probeCpython,
  type CpythonAvailability,
  type CpythonExecutorOptions,
} from "./sandbox/cpython-executor.js";
export { createDefaultExecutor, type DefaultExecutorOptions, type SandboxEngine } from "./sandbox/default-executor.js";
export { createScriptedExecutor, type ScriptedAnswer, type ScriptedChunk } from "./sandbox/scripted-executor.js";
export type {
  Executor,
  OutputStream,
  RunFileOutput,
  RunOutcome,
  RunRequest,
  SandboxFault,
} from "./sandbox/executor.js";
export type { RateLimit } from "./sandbox/rate-limiter.js";
export type { RunSchedule } from "./sandbox/run-scheduler.js";
