export * from "./phase.js";
export { isCompleteJson, readStreamingCode } from "./streaming-args.js";
export { findProgramFrames, type ProgramFrame } from "./traceback.js";
export {
  windowOutput,
  DEFAULT_OUTPUT_LIMITS,
  type OutputWindow,
  type OutputWindowLimits,
} from "./output-window.js";
export { fromAISDKToolPart, type AISDKToolPartLike } from "./ai-sdk-tool-part.js";
