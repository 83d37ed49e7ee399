// The README's "Ask before running code": examples/ask-before-running.ts in a
// model turn that calls execute_code, or another tool.
import { stepCountIs, streamText, tool, type ToolSet, type UIMessageChunk } from "ai";
import { generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { askingTool, gatedTools } from "../../../examples/ask-before-running";
import { createScriptedModel } from "../../../src/harness";
import type { ExecuteCodeToolContext } from "../../../src/server";
import { python } from "./fixtures";

let ctx: ExecuteCodeToolContext;
beforeAll(async () => {
  const { privateKey } = await generateKeyPair("EdDSA");
  // No sandbox listens there: a program that ran anyway would end in an error result.
  ctx = {
    sandboxUrl: "http://127.0.0.1:9",
    signing: { privateKey, algorithm: "EdDSA", issuer: "my-tutor", audience: "sandbox" },
    participantId: "student-42",
    tenantId: "course-7",
  };
});

/** An MCP tool that is not code execution. */
const mcpTools: ToolSet = {
  check_style: tool({
    description: "Comments on a program's style",
    inputSchema: z.object({ code: z.string() }),
    execute: async ({ code }) => `${code.split("\n").length} line, style fine`,
  }),
};

/** One turn of a model that calls `toolName` with the program of the message. */
async function turn(tools: ToolSet, toolName: string): Promise<UIMessageChunk[]> {
  const result = streamText({
    model: createScriptedModel({ toolName, chunkDelayMs: 0 }),
    tools,
    prompt: python("print(6 * 7)"),
    stopWhen: stepCountIs(2),
  });
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
  return chunks;
}

const types = (chunks: UIMessageChunk[]) => chunks.map((chunk) => chunk.type);

describe("asking before code runs (examples/ask-before-running.ts)", () => {
  it("the tool alone: execute_code stops at an approval request, and nothing runs", async () => {
    const chunks = await turn({ execute_code: askingTool(ctx) }, "execute_code");
    expect(types(chunks)).toContain("tool-approval-request");
    expect(types(chunks)).not.toContain("tool-output-available");
    expect(types(chunks)).not.toContain("tool-output-error");
  });

  it("the gated tool set: execute_code stops at an approval request", async () => {
    const chunks = await turn(gatedTools(ctx, mcpTools), "execute_code");
    expect(types(chunks)).toContain("tool-approval-request");
    expect(types(chunks)).not.toContain("tool-output-available");
  });

  it("the gated tool set: the MCP tool that runs no code answers at once", async () => {
    const chunks = await turn(gatedTools(ctx, mcpTools), "check_style");
    expect(types(chunks)).not.toContain("tool-approval-request");
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: "tool-output-available", output: "1 line, style fine" }),
    );
  });
});
