// execute-code-ui/assistant-ui: the card bound to assistant-ui's tool-call props.
export { makeExecuteCodeToolkit, executeCodeToolkit } from "./toolkit.js";
export { makeExecuteCodeRenderer, ExecuteCodeToolRender, type ExecuteCodeToolProps } from "./renderer.js";
export { makeExecuteCodeToolUI, ExecuteCodeToolUI } from "./tool-ui.js";
export type { ExecuteCodeToolUIOptions, ExecuteCodeRendererOptions } from "./options.js";
export { CLIENT_DENIED, type ExecuteCodeRunner } from "./client-run.js";
export { createStoredChatsAdapter, storedChatHistory, type StoredChatsOptions } from "./stored-chats.js";
export { stopRunOnAbort, type StopRunOnAbortOptions } from "./stop-on-abort.js";
export {
  createExecuteCodeAttachmentAdapter,
  type AttachmentMessages,
  type ExecuteCodeAttachmentOptions,
} from "./attachment-adapter.js";
export { ExecuteCodeComposerAttachments, ExecuteCodeMessageAttachments } from "./attachments.js";
export { MessageText as ExecuteCodeMessageText } from "../ui/message-text.js";
