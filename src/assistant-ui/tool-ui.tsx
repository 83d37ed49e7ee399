"use client";

import { makeAssistantToolUI, type AssistantToolUI } from "@assistant-ui/react";
import type { ExecuteCodeInput } from "../contract/index.js";
import type { ExecuteCodeToolUIOptions } from "./options.js";
import { makeExecuteCodeRenderer } from "./renderer.js";

/**
 * A tool UI component for a code-execution tool: mount it once anywhere
 * under `AssistantRuntimeProvider`. assistant-ui 0.15 prefers toolkits
 * (`makeExecuteCodeToolkit`); this route keeps working for apps that mount
 * tool UIs as components.
 */
export function makeExecuteCodeToolUI(options: ExecuteCodeToolUIOptions = {}): AssistantToolUI {
  const { toolName = "execute_code", ...rest } = options;
  return makeAssistantToolUI<Partial<ExecuteCodeInput>, unknown>({
    toolName,
    render: makeExecuteCodeRenderer(rest),
  });
}

/** The `execute_code` tool UI with English labels. */
export const ExecuteCodeToolUI = makeExecuteCodeToolUI();
