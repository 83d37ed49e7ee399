import type { ToolSet } from "ai";
import { createExecuteCodeTool, gateCodeExecution, type ExecuteCodeToolContext } from "execute-code-ui/server";

// Either the tool alone: approval "always", "never", or (input) => boolean.
export const askingTool = (ctx: ExecuteCodeToolContext) => createExecuteCodeTool({ ...ctx, approval: "always" });

// Or a whole tool set, your MCP tools with the kit's.
export const gatedTools = (ctx: ExecuteCodeToolContext, mcpTools: ToolSet) =>
  gateCodeExecution(
    { ...mcpTools, execute_code: createExecuteCodeTool(ctx) },
    { confirmCodeExecution: true }, // or confirmAllTools; bypassPermissions wins over both
  );
