export { CHAT_STATUSES, ChatStateConflict, canMove, nextStatus, type ChatEvent, type ChatStatus } from "./status.js";
export { moveChat, type ChatDescription, type ChatRecord, type ChatStore, type ChatSummary, type DynamicToolSpec } from "./store.js";
export { createSqliteChatStore, type SqliteChatStoreOptions } from "./sqlite-store.js";
export { createPostgresChatStore, type PgPool, type PostgresChatStoreOptions } from "./postgres-store.js";
export {
  chatView,
  createChatEndpoints,
  type ChatCaller,
  type ChatEndpoints,
  type ChatEndpointsOptions,
  type ChatLogEvent,
  type ChatSummaryView,
  type ChatView,
  type ServerToolsContext,
} from "./endpoints.js";
export {
  ChatRequestError,
  DEFAULT_CHAT_LIMITS,
  executeCodeResultContract,
  jsonSchemaContract,
  type ChatLimits,
  type ToolResultContract,
} from "./validate.js";
export { pendingApprovals, pendingCalls, type PendingApproval, type PendingCall } from "./calls.js";
export { sendWebResponse, toNodeHandler, toWebRequest } from "./node-adapter.js";
export { createRunStreams, inProcessPubSub, type Publisher, type RunStreams, type RunStreamsOptions, type Subscriber } from "./run-streams.js";
