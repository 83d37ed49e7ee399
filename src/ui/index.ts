export { ExecuteCodeCard, type ExecuteCodeCardProps } from "./execute-code-card.js";
export {
  ExecuteCode,
  type RootProps as ExecuteCodeRootProps,
  type SourceProps as ExecuteCodeSourceProps,
  type OutputProps as ExecuteCodeOutputProps,
  type ApprovalProps as ExecuteCodeApprovalProps,
  type StopProps as ExecuteCodeStopProps,
  type RetryProps as ExecuteCodeRetryProps,
} from "./execute-code.js";
export { AnsiText } from "./ansi.js";
export { VisibleText } from "./visible-text.js";
export { englishLabels, type ExecuteCodeLabels } from "./labels.js";
export { preloadHighlighter } from "./highlight/sessions.js";
export {
  AttachmentChip,
  englishAttachmentLabels,
  type AttachmentChipProps,
  type AttachmentLabels,
} from "./attachment-chip.js";
