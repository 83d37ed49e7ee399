import type { Tool, ToolSet } from "ai";

/** Names under which code-execution tools come from this kit and from other sources (MCP servers, agents). */
export const DEFAULT_CODE_EXECUTION_TOOL_NAMES: readonly string[] = [
  "execute_code",
  "python",
  "run_python",
  "code_interpreter",
  "terminal",
];

export interface GateOptions {
  /** Ask before every code-execution tool runs; other tools run at once. */
  confirmCodeExecution?: boolean;
  /** Ask before every tool runs. */
  confirmAllTools?: boolean;
  /** Ask before nothing; wins over both flags above (tools keep their own `needsApproval`). */
  bypassPermissions?: boolean;
  /**
   * Which tool names count as code execution.
   * @default `DEFAULT_CODE_EXECUTION_TOOL_NAMES`
   */
  codeExecutionToolNames?: readonly string[];
}

/**
 * Applies an approval policy to a whole tool set with the AI SDK's
 * `needsApproval`: the chat stream stops at `tool-approval-request` until
 * the user answers. A gated tool always asks; a tool the policy leaves alone
 * keeps its own `needsApproval`.
 */
export function gateCodeExecution<T extends ToolSet>(tools: T, options: GateOptions = {}): T {
  if (options.bypassPermissions || (!options.confirmCodeExecution && !options.confirmAllTools)) return tools;
  const codeTools = new Set(options.codeExecutionToolNames ?? DEFAULT_CODE_EXECUTION_TOOL_NAMES);
  const gated: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const gate = options.confirmAllTools || codeTools.has(name);
    // `true` is as strict as approval gets, so it replaces any own policy.
    gated[name] = gate ? ({ ...tool, needsApproval: true } as Tool) : tool;
  }
  return gated as T;
}

/** When `createExecuteCodeTool` asks before running: never, always, or per call. */
export type ApprovalPolicy<Input> =
  | "never"
  | "always"
  | ((input: Input, context: { toolCallId: string }) => boolean | PromiseLike<boolean>);

export function toNeedsApproval<Input>(policy: ApprovalPolicy<Input> | undefined) {
  if (policy === undefined || policy === "never") return undefined;
  if (policy === "always") return true;
  return (input: Input, { toolCallId }: { toolCallId: string }) => policy(input, { toolCallId });
}
