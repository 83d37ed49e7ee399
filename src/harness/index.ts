export { startHarness, type HarnessOptions, type RunningHarness } from "./harness-server";
export { createChatHandler, type ChatHandlerOptions } from "./chat-handler";
export { createScriptedModel, DEMO_PROGRAMS, programFor, replyToToolResult, type ScriptedModelOptions } from "./scripted-model";
export { createMockSandbox, DEFAULT_SANDBOX_RATE_LIMIT, type MockSandboxOptions } from "./sandbox/mock-sandbox";
export { createPyodideExecutor, type PyodideExecutorOptions } from "./sandbox/pyodide-executor";
export { createScriptedExecutor, type ScriptedAnswer } from "./sandbox/scripted-executor";
export type { Executor, RunOutcome, RunRequest, SandboxFault } from "./sandbox/executor";
export type { RateLimit } from "./sandbox/rate-limiter";
