// The browser entry re-exports this: the program's input schema (zod, for
// the AI SDK) stays with the server, in ./input.
export type { ExecuteCodeInput } from "./input";
export * from "./result";
export { normalizeExecuteCodeResult } from "./normalize";
export { parseSandboxResponse, sandboxResponseSchema, sandboxTimedOut, type SandboxResponse } from "./sandbox-response";
