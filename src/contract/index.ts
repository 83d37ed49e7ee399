export * from "./input";
export * from "./result";
export { normalizeExecuteCodeResult } from "./normalize";
export { sandboxResponseSchema, sandboxTimedOut, type SandboxResponse } from "./sandbox-response";
