import type { createExecuteCodeTool, ExecuteCodeInput } from "../../src/server";
import { describeModelOutput } from "../../src/server/tool/model-output";

type Tool = ReturnType<typeof createExecuteCodeTool>;

/** Runs the tool as the AI SDK does: every preliminary output, then the final one. */
export async function runTool(tool: Tool, input: string | ExecuteCodeInput, abortSignal?: AbortSignal) {
  const outputs: unknown[] = [];
  for await (const output of tool.execute!(typeof input === "string" ? { code: input } : input, {
    toolCallId: "call-1",
    messages: [],
    abortSignal,
    context: {},
  }) as AsyncIterable<unknown>) {
    outputs.push(output);
  }
  return { final: outputs.at(-1), preliminary: outputs.slice(0, -1) };
}

/** The final output alone. */
export async function finalOutput(
  tool: Tool,
  input: string | ExecuteCodeInput,
  abortSignal?: AbortSignal,
): Promise<unknown> {
  return (await runTool(tool, input, abortSignal)).final;
}

/** A completed run as the tool tells the model of it: exit 0 and nothing printed, but for `fields`. */
export const describeCompleted = (fields: Record<string, unknown>) =>
  describeModelOutput({
    status: "completed",
    stdout: "",
    stderr: "",
    exitCode: 0,
    signal: null,
    wallTimeMs: 3,
    truncated: { stdout: 0, stderr: 0 },
    ...fields,
  });
