export * from "./phase";
export { isCompleteJson, readStreamingCode } from "./streaming-args";
export { findProgramFrames, type ProgramFrame } from "./traceback";
