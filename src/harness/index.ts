export { startHarness, type HarnessOptions, type RunningHarness } from "./harness-server.js";
export { createChatHandler, type ChatHandlerOptions } from "./chat-handler.js";
export { createScriptedModel, DEMO_PROGRAMS, programFor, replyToToolResult, type ScriptedModelOptions } from "./scripted-model.js";
export { createMockSandbox, DEFAULT_SANDBOX_RATE_LIMIT, type MockSandboxOptions } from "./sandbox/mock-sandbox.js";
export { startMockSandbox, type StartMockSandboxOptions, type StartedMockSandbox } from "./sandbox/start-mock-sandbox.js";
export { createPyodideExecutor, type PyodideExecutorOptions } from "./sandbox/pyodide-executor.js";
export { createScriptedExecutor, type ScriptedAnswer } from "./sandbox/scripted-executor.js";
export type { Executor, RunOutcome, RunRequest, SandboxFault } from "./sandbox/executor.js";
export type { RateLimit } from "./sandbox/rate-limiter.js";
