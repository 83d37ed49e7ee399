import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream, tool, type ToolSet } from "ai";
import { z } from "zod";
import {
  createChatEndpoints,
  createSqliteChatStore,
  type ChatEndpointsOptions,
  type ChatRecord,
  type ChatStore,
} from "../../../src/server";

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

export interface PlannedCall {
  toolName: string;
  input: Record<string, unknown>;
  id?: string;
}

/**
 * A model for tests: on a user message it calls the planned tools (all in
 * one step); after tool results it answers with the results it read. It
 * records every prompt it was given.
 */
export function plannedModel(plan: (prompt: LanguageModelV3Prompt) => PlannedCall[]) {
  const prompts: LanguageModelV3Prompt[] = [];
  let calls = 0;
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "planned",
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error("not used");
    },
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      const last = prompt.at(-1);
      let parts: LanguageModelV3StreamPart[];
      if (last?.role === "tool") {
        const seen = last.content
          .map((part) => (part.type === "tool-result" ? `${part.toolName}=${JSON.stringify(part.output)}` : ""))
          .join("; ");
        parts = [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: `I read: ${seen}` },
          { type: "text-end", id: "t" },
          { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
        ];
      } else {
        parts = [
          ...plan(prompt).map(
            (call): LanguageModelV3StreamPart => ({
              type: "tool-call",
              toolCallId: call.id ?? `call_${++calls}`,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            }),
          ),
          { type: "finish", usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
        ];
      }
      return {
        stream: simulateReadableStream({
          chunks: [{ type: "stream-start", warnings: [] } as LanguageModelV3StreamPart, ...parts],
          chunkDelayInMs: 0,
        }),
      };
    },
  };
  return { model, prompts };
}

/** A chat as a store keeps it, for tests of the stores: idle and empty unless told, made when it last changed. */
export const storedChat = (chat: Pick<ChatRecord, "owner" | "id" | "updatedAt"> & Partial<ChatRecord>): ChatRecord => ({
  status: "idle",
  version: 0,
  messages: [],
  tools: [],
  options: {},
  approvals: {},
  error: null,
  createdAt: chat.updatedAt,
  ...chat,
});

export const completed = (stdout: string) => ({
  status: "completed",
  stdout,
  stderr: "",
  exitCode: 0,
  signal: null,
  wallTimeMs: 5,
  truncated: { stdout: 0, stderr: 0 },
});

/** The server's own tools: a `lookup` that always runs, and `execute_code` (which a client may replace). */
export function serverTools(runs: string[]): ToolSet {
  return {
    lookup: tool({
      description: "Look a word up",
      inputSchema: z.object({ word: z.string() }),
      execute: async ({ word }) => {
        runs.push(`lookup:${word}`);
        return { meaning: `the meaning of ${word}` };
      },
    }),
    execute_code: tool({
      description: "Run Python on the server",
      inputSchema: z.object({ code: z.string() }),
      execute: async ({ code }) => {
        runs.push(`server:${code}`);
        return completed("from the server\n");
      },
    }),
  };
}

/** The server's tools with `lookup` asking for approval first. */
export function serverToolsWithApproval(runs: string[]) {
  const tools = serverTools(runs);
  return { ...tools, lookup: { ...tools.lookup!, needsApproval: true } };
}

export const executeCodeTool = {
  name: "execute_code",
  description: "Run Python in the browser",
  input_schema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
};

export const weatherTool = {
  name: "weather",
  description: "The weather where the client is",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  output_schema: {
    type: "object",
    properties: { celsius: { type: "number" }, sky: { type: "string" } },
    required: ["celsius"],
  },
};

export async function chatServer(options: {
  plan: (prompt: LanguageModelV3Prompt) => PlannedCall[];
  store?: ChatStore;
  endpoints?: Partial<ChatEndpointsOptions>;
}) {
  const runs: string[] = [];
  const store = options.store ?? (await createSqliteChatStore({ path: ":memory:" }));
  const { model, prompts } = plannedModel(options.plan);
  const chats = createChatEndpoints({
    store,
    model,
    instructions: "You are a tutor.",
    tools: () => serverTools(runs),
    clientReplaceableTools: ["execute_code"],
    busyWaitMs: 200,
    ...options.endpoints,
  });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    participantId = "alice",
    headers: Record<string, string> = {},
  ) => {
    const response = await chats.handle(
      new Request(`http://chat.test${path}`, {
        method,
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      }),
      { participantId },
    );
    if (!response) throw new Error(`No route for ${path}`);
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, body: json };
  };
  return { chats, store, runs, prompts, call };
}
