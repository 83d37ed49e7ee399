import { jsonSchema, tool, type Tool, type ToolSet } from "ai";
import { describeModelOutput } from "../tool/model-output.js";
import type { DynamicToolSpec } from "./store.js";

/** What the model reads first of a client's result: the student's own browser wrote it, not the code runner. */
export const BROWSER_RUN =
  "[This program ran in the student's browser, and the browser reported what follows; the server did not see it run.]";

/**
 * The tools a chat's client runs itself, as the model sees them: no
 * `execute`, so a call of one ends the loop until the client answers. A
 * client's `execute_code` reads to the model as the server tool's does,
 * under a line that says the student's browser ran it and reported it.
 */
export function clientTools(specs: readonly DynamicToolSpec[]): ToolSet {
  const tools: ToolSet = {};
  for (const spec of specs) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema<Record<string, unknown>>(spec.inputSchema as Parameters<typeof jsonSchema>[0]),
      ...(spec.name === "execute_code"
        ? {
            toModelOutput: ({ output }: { output: unknown }) => ({
              type: "text" as const,
              value: `${BROWSER_RUN}\n${describeModelOutput(output)}`,
            }),
          }
        : {}),
    }) as Tool;
  }
  return tools;
}
