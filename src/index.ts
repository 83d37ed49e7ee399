export * from "./contract/index.js";
export * from "./view/index.js";
export * from "./ui/index.js";
