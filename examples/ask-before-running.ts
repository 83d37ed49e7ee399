import type { ToolSet } from "ai";
import { buildExecuteCodeTool, gateCodeExecution, type ExecuteCodeToolContext } from "execute-code-ui/server";

// Either the tool alone: approval "always", "never", or (input) => boolean.
export const askingTool = (ctx: ExecuteCodeToolContext) => buildExecuteCodeTool({ ...ctx, approval: "always" });

// Or a whole tool set, your MCP tools with the kit's.
export const gatedTools = (ctx: ExecuteCodeToolContext, mcpTools: ToolSet) =>
  gateCodeExecution(
    { ...mcpTools, execute_code: buildExecuteCodeTool(ctx) },
    { confirmCodeExecution: true }, // or confirmAllTools; bypassPermissions wins over both
  );
