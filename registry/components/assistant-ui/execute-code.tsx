"use client";

// The `execute_code` tool UI. The card itself lives in the execute-code-ui
// package (fixes arrive with `npm update`); this file holds your options.
import {
  makeExecuteCodeRenderer,
  makeExecuteCodeToolkit,
  type ExecuteCodeRendererOptions,
} from "execute-code-ui/assistant-ui";
import "execute-code-ui/styles.css";

/** The name of the tool in your server's `tools`. */
const toolName = "execute_code";

/**
 * Labels (`{ title: "Python" }` or `germanLabels` from
 * "execute-code-ui/locales/de"), `theme` (by default a `.dark` ancestor
 * decides), `className`, and `execution: "client"` when the browser runs the code.
 */
const options: ExecuteCodeRendererOptions = {};

/** Every `execute_code` call as the card: `AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) })`. */
export const executeCodeToolkit = makeExecuteCodeToolkit({ toolName, ...options });

/** The same card for a parts override: `<MessagePrimitive.Parts components={{ tools: { by_name: { execute_code: ExecuteCodeTool } } }} />`. */
export const ExecuteCodeTool = makeExecuteCodeRenderer(options);
