export {
  ExecuteCodeToolUI,
  makeExecuteCodeToolUI,
  makeExecuteCodeRenderer,
  type ExecuteCodeToolUIOptions,
} from "./make-execute-code-tool-ui.js";
