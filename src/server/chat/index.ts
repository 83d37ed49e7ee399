export { CHAT_STATUSES, ChatStateConflict, canMove, nextStatus, type ChatEvent, type ChatStatus } from "./status.js";
export { moveChat, type ChatDescription, type ChatRecord, type ChatStore, type ChatSummary, type DynamicToolSpec } from "./store.js";
export { createSqliteChatStore, type SqliteChatStoreOptions } from "./sqlite-store.js";
export { createPostgresChatStore, type PgPool, type PostgresChatStoreOptions } from "./postgres-store.js";
export { chatView, createChatEndpoints, type ChatEndpoints, type ChatSummaryView, type ChatView } from "./endpoints.js";
export type { ChatCaller, ChatEndpointsOptions, ChatLogEvent, ServerToolsContext } from "./options.js";
export {
  ChatRequestError,
  DEFAULT_CHAT_LIMITS,
  executeCodeResultContract,
  jsonSchemaContract,
  type ChatLimits,
  type ToolResultContract,
} from "./validate.js";
export { pendingApprovals, pendingCalls, type PendingApproval, type PendingCall } from "./calls.js";
export { matchChatRoute, type ChatEndpointName, type ChatMethod, type ChatRoute } from "./routes.js";
export { sendWebResponse, toNodeHandler, toWebRequest } from "./node-adapter.js";
export { createRunStreams, inProcessPubSub, TooManyFollowers, type Publisher, type RunStreams, type RunStreamsOptions, type Subscriber } from "./run-streams.js";
