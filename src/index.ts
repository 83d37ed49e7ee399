// execute-code-ui: the card and the pure helpers around it. No assistant-ui
// here (that binding is execute-code-ui/assistant-ui), and no server code.
// Each name by itself, as docs/card.md's "What `execute-code-ui` exports"
// lists them: a name the view or the card's folder adds stays internal
// until it is listed here and there.
export { normalizeExecuteCodeResult } from "./contract/normalize.js";
export type { ExecuteCodeInput } from "./contract/input.js";
export type {
  ExecuteCodeResult,
  ExecuteCodeCompletedResult,
  ExecuteCodeTimeoutResult,
  ExecuteCodeBusyResult,
  ExecuteCodeErrorResult,
  ExecuteCodeTruncation,
  ExecuteCodeRunFile,
  NormalizedExecuteCodeResult,
  UnrecognisedResult,
} from "./contract/result.js";
export {
  deriveExecuteCodeView,
  ENDED_PHASES,
  EXECUTE_CODE_PHASES,
  fromAISDKToolPart,
  PHASES,
  type AISDKToolPartLike,
  type EndedPhase,
  type ExecuteCodeCallState,
  type ExecuteCodeOutput,
  type ExecuteCodePhase,
  type ExecuteCodeView,
  type PhaseFacts,
} from "./view/index.js";
export {
  AnsiText,
  AttachmentChip,
  englishAttachmentLabels,
  englishLabels,
  ExecuteCode,
  ExecuteCodeCard,
  preloadHighlighter,
  VisibleText,
  type AttachmentChipProps,
  type AttachmentLabels,
  type ExecuteCodeApprovalProps,
  type ExecuteCodeCardProps,
  type ExecuteCodeLabels,
  type ExecuteCodeOutputProps,
  type ExecuteCodeRetryProps,
  type ExecuteCodeRootProps,
  type ExecuteCodeSourceProps,
  type ExecuteCodeStopProps,
} from "./ui/index.js";
