export * from "./phase";
export { isCompleteJson, readStreamingCode } from "./streaming-args";
export { findProgramFrames, type ProgramFrame } from "./traceback";
export {
  windowOutput,
  DEFAULT_OUTPUT_LIMITS,
  type OutputWindow,
  type OutputWindowLimits,
} from "./output-window";
export { fromAISDKToolPart, type AISDKToolPartLike } from "./ai-sdk-tool-part";
