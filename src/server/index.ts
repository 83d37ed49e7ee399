export {
  buildExecuteCodeTool,
  type ExecuteCodeLogEvent,
  type ExecuteCodeToolContext,
  type ExecutionCost,
} from "./execute-code-tool.js";
export { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS, DEFAULT_TIMEOUT_MS } from "../contract/limits.js";
export { describeModelOutput } from "./model-output.js";
export {
  DEFAULT_CODE_EXECUTION_TOOL_NAMES,
  gateCodeExecution,
  type ApprovalPolicy,
  type GateOptions,
} from "./approval-gate.js";
export { createApprovalExpiry, expiredApprovalResult, type ApprovalExpiryOptions } from "./approval-expiry.js";
export { mergeTools, type ToolNameClash } from "./merge-tools.js";
export { EXECUTE_CODE_SYSTEM_PROMPT } from "./system-prompt.js";
export { createRunFileRoute, type RunFileRouteOptions } from "./run-file-route.js";
export {
  createTokenMinter,
  MAX_TOKEN_LIFETIME_SECONDS,
  type SigningAlgorithm,
  type TokenMinter,
  type TokenMinterOptions,
  type TokenSubject,
} from "./token.js";
export * from "../contract/index.js";
export { executeCodeInputSchema, MAX_CODE_LENGTH } from "../contract/input.js";
export * from "./chat/index.js";
