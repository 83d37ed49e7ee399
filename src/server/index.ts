// execute-code-ui/server: what a server needs, named one by one and grouped
// as the README's server sections are. tests/node/entries.test.ts checks
// that the README names every export.

// Said when the app starts, not as a 500 on its first request.
import "./require-node.js";

// The server tool (README: The server tool; docs/server.md: Live output, Figures and files).
export {
  buildExecuteCodeTool,
  createExecuteCodeTool,
  type ExecuteCodeLogEvent,
  type ExecuteCodeSandboxContext,
  type ExecuteCodeToolContext,
  type ExecuteCodeToolOptions,
  type ExecutionCost,
} from "./tool/execute-code-tool.js";
export { codeapiSandbox, type CodeapiSandboxOptions } from "./codeapi/codeapi-sandbox.js";
export type { Sandbox, SandboxEvent, SandboxRunRequest } from "./sandbox.js";
export { createJupyterSandbox, type JupyterSandboxOptions } from "./jupyter/jupyter-sandbox.js";
export { EXECUTE_CODE_SYSTEM_PROMPT } from "./tool/system-prompt.js";
export { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS, DEFAULT_TIMEOUT_MS } from "../contract/limits.js";
export {
  createRunFileRoute,
  type RunFileRouteOptions,
  type RunFileRouteSandboxOptions,
} from "./files/run-file-route.js";

// A student's files (docs/files.md).
export {
  createUploadRoute,
  DEFAULT_UPLOAD_CAPS,
  type UploadedFile,
  type UploadRouteOptions,
} from "./files/upload-route.js";
export {
  createSandboxFiles,
  type KeptFile,
  type SandboxFiles,
  type SandboxFilesOptions,
} from "./files/sandbox-files.js";
export { chatFiles, type AttachmentFacts, type ChatFile } from "./tool/chat-files.js";
export {
  createTokenMinter,
  MAX_TOKEN_LIFETIME_SECONDS,
  type SigningAlgorithm,
  type TokenMinter,
  type TokenMinterOptions,
  type TokenSubject,
} from "./token.js";
export { mergeTools, type ToolNameClash } from "./tool/merge-tools.js";

// Ask before running code (docs/server.md).
export {
  DEFAULT_CODE_EXECUTION_TOOL_NAMES,
  gateCodeExecution,
  type ApprovalPolicy,
  type GateOptions,
} from "./tool/approval-gate.js";
export { createApprovalExpiry, expiredApprovalResult, type ApprovalExpiryOptions } from "./tool/approval-expiry.js";

// Chats kept on the server (docs/chats.md).
export { createChatEndpoints, type ChatEndpoints, type ChatSummaryView, type ChatView } from "./chat/endpoints.js";
export type {
  ChatCaller,
  ChatEndpointsOptions,
  ChatLogEvent,
  ModelBudget,
  ServerToolsContext,
} from "./chat/options.js";
export {
  DEFAULT_CHAT_LIMITS,
  executeCodeResultContract,
  jsonSchemaContract,
  type ChatLimits,
  type ToolResultContract,
} from "./chat/validate.js";
export { toNodeHandler, toNodeMiddleware, type NodeMiddlewareOptions } from "./chat/node-adapter.js";
export { createChatRoutes, type ChatRouteHandler, type ChatRoutesOptions } from "./chat/chat-routes.js";
export type { SameOriginOptions } from "./http/same-origin.js";
export { createSqliteChatStore, type SqliteChatStoreOptions } from "./chat/sqlite-store.js";
export { createPostgresChatStore, type PgPool, type PostgresChatStoreOptions } from "./chat/postgres-store.js";
export {
  createRunStreams,
  inProcessPubSub,
  type Publisher,
  type RunStreams,
  type RunStreamsOptions,
  type Subscriber,
} from "./chat/run-streams.js";

// A chat store of your own (docs/chats.md).
export {
  CHAT_STATUSES,
  ChatStateConflict,
  canMove,
  nextStatus,
  type ChatEvent,
  type ChatStatus,
} from "./chat/status.js";
export {
  moveChat,
  type ChatDescription,
  type ChatHead,
  type ChatListing,
  type ChatRecord,
  type ChatStore,
  type ChatSummary,
  type DynamicToolSpec,
} from "./chat/store.js";

// The tool's input and results (docs/card.md: Results it understands).
export { executeCodeInputSchema, MAX_CODE_LENGTH } from "../contract/input.js";
export type { ExecuteCodeInput } from "../contract/input.js";
export {
  APPROVAL_EXPIRED,
  RUN_STOPPED,
  executeCodeResultSchema,
  type ExecuteCodeBusyResult,
  type ExecuteCodeCompletedResult,
  type ExecuteCodeErrorResult,
  type ExecuteCodeProgress,
  type ExecuteCodeResult,
  type ExecuteCodeRunFile,
  type ExecuteCodeRunningResult,
  type ExecuteCodeTimeoutResult,
  type ExecuteCodeTruncation,
  type NormalizedExecuteCodeResult,
  type UnrecognisedResult,
} from "../contract/result.js";
export { normalizeExecuteCodeResult } from "../contract/normalize.js";
// Why a run failed (docs/server.md: Why a run failed).
export { failureSchema, readFailure, type ExecuteCodeFailure } from "../contract/failure.js";
