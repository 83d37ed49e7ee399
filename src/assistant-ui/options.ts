import type { ExecuteCodeLabels } from "../ui/labels.js";

export interface ExecuteCodeToolUIOptions {
  /** Name of the tool to render; `execute_code` unless the host had to rename it. */
  toolName?: string;
  labels?: Partial<ExecuteCodeLabels>;
  theme?: "light" | "dark";
  className?: string;
  /** `"client"` when the browser runs the code and adds the result; default `"server"`. */
  execution?: "server" | "client";
}

export type ExecuteCodeRendererOptions = Omit<ExecuteCodeToolUIOptions, "toolName">;
