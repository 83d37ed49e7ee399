import type { ExecuteCodeLabels } from "../ui/labels.js";
import type { ExecuteCodeRunner } from "./client-run.js";

export interface ExecuteCodeToolUIOptions {
  /** Name of the tool to render; `execute_code` unless the host had to rename it. */
  toolName?: string;
  labels?: Partial<ExecuteCodeLabels>;
  theme?: "light" | "dark";
  className?: string;
  /**
   * `"client"` when the browser runs the code and adds the result.
   * @default "server"
   */
  execution?: "server" | "client";
  /**
   * With `execution: "client"`: what runs each call's program in the browser
   * (`createPyodideWorkerExecutor()` from `execute-code-ui/client-executor`).
   * The card then runs a call once its program is written and the chat
   * awaits its result, shows it running, and adds the result through the
   * runtime. Without it the card only shows that the call awaits the
   * client, and the host adds the result itself.
   */
  executor?: ExecuteCodeRunner;
  /**
   * With an `executor`: ask with Run and Deny before each program runs. A function is read for each call.
   * @default false
   */
  askBeforeRunning?: boolean | (() => boolean);
}

export type ExecuteCodeRendererOptions = Omit<ExecuteCodeToolUIOptions, "toolName">;
