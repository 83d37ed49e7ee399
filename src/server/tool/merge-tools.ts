import type { ToolSet } from "ai";

export interface ToolNameClash {
  type: "tool_name_clash";
  name: string;
  kept: "native";
}

/**
 * Joins tools from MCP servers with the app's own. On a name clash the
 * native tool wins (its behaviour is known), and the clash is logged.
 */
export function mergeTools<M extends ToolSet, N extends ToolSet>(
  mcpTools: M,
  nativeTools: N,
  options: { log?: (event: ToolNameClash) => void } = {},
): Omit<M, keyof N> & N {
  for (const name of Object.keys(nativeTools)) {
    if (Object.hasOwn(mcpTools, name)) options.log?.({ type: "tool_name_clash", name, kept: "native" });
  }
  return { ...mcpTools, ...nativeTools };
}
