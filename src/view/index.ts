export {
  deriveExecuteCodeView,
  ENDED_PHASES,
  EXECUTE_CODE_PHASES,
  type ExecuteCodeCallState,
  type ExecuteCodeOutput,
  type ExecuteCodePhase,
  type ExecuteCodeView,
} from "./phase.js";
export { fromAISDKToolPart, type AISDKToolPartLike } from "./ai-sdk-tool-part.js";
