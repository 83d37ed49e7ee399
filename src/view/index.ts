export { deriveExecuteCodeView } from "./derive-view.js";
export {
  ENDED_PHASES,
  EXECUTE_CODE_PHASES,
  PHASES,
  type EndedPhase,
  type ExecuteCodePhase,
  type PhaseFacts,
} from "./phases.js";
export type { ExecuteCodeCallState, ExecuteCodeOutput, ExecuteCodeView } from "./view-types.js";
export { fromAISDKToolPart, type AISDKToolPartLike } from "./ai-sdk-tool-part.js";
