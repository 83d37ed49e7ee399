// execute-code-ui: the card and the pure helpers around it. No assistant-ui
// here (that binding is execute-code-ui/assistant-ui), and no server code.
export {
  normalizeExecuteCodeResult,
  type ExecuteCodeInput,
  type ExecuteCodeResult,
  type ExecuteCodeCompletedResult,
  type ExecuteCodeTimeoutResult,
  type ExecuteCodeBusyResult,
  type ExecuteCodeErrorResult,
  type ExecuteCodeTruncation,
  type ExecuteCodeRunFile,
  type NormalizedExecuteCodeResult,
  type UnrecognisedResult,
} from "./contract/index.js";
export * from "./view/index.js";
export * from "./ui/index.js";
