import type { Toolkit } from "@assistant-ui/react";
import type { ExecuteCodeToolUIOptions } from "./options.js";
import { makeExecuteCodeRenderer } from "./renderer.js";

/**
 * A toolkit with the card as the renderer of a server-run code tool, for
 * `AuiConfig({ tools: Tools({ toolkit }) })`. Make it once (module scope or
 * `useMemo`): assistant-ui registers the toolkit again when its identity changes.
 */
export function makeExecuteCodeToolkit(options: ExecuteCodeToolUIOptions = {}): Toolkit {
  const { toolName = "execute_code", ...rest } = options;
  return { [toolName]: { type: "backend", render: makeExecuteCodeRenderer(rest) } } satisfies Toolkit;
}

/** The `execute_code` toolkit with English labels. */
export const executeCodeToolkit: Toolkit = makeExecuteCodeToolkit();
