export * from "./contract";
export * from "./view";
export * from "./ui";
export * from "./assistant-ui";
