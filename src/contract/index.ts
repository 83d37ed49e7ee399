export * from "./input";
export * from "./result";
export { normalizeExecuteCodeResult } from "./normalize";
