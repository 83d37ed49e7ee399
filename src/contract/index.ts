// The browser entry re-exports this: the program's input schema (zod, for
// the AI SDK) stays with the server, in ./input.
export type { ExecuteCodeInput } from "./input.js";
export * from "./result.js";
export { normalizeExecuteCodeResult } from "./normalize.js";
export { parseSandboxResponse, sandboxResponseSchema, type SandboxResponse } from "./sandbox-response.js";
export { sandboxTimedOut, sandboxTruncation } from "./sandbox-answer.js";
