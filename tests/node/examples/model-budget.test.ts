// examples/model-budget.ts: a daily share of the model per student, counted
// from each run's tokens; past it the student's next message is refused in
// words, nothing is stored, and other students go on.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { describe, expect, it, vi } from "vitest";
import { dailyShare } from "../../../examples/model-budget";
import type { ModelBudget } from "../../../src/server";
import { chatServer } from "../chat/fixtures";

/** A model whose every call answers in words and uses 120,000 tokens. */
const costlyModel: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "test",
  modelId: "costly",
  supportedUrls: {},
  doGenerate: async () => {
    throw new Error("not used");
  },
  doStream: async () => ({
    stream: simulateReadableStream({
      chunks: [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Here is the answer." },
        { type: "text-end", id: "t" },
        {
          type: "finish",
          usage: {
            inputTokens: { total: 100_000, noCache: 100_000, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 20_000, text: 20_000, reasoning: 0 },
          },
          finishReason: { unified: "stop", raw: "stop" },
        },
      ],
    }),
  }),
};

describe("a daily share of the model per student", () => {
  it("counts each call's tokens, refuses the student past the share in words, and leaves the others alone", async () => {
    const told: string[] = [];
    const modelBudget: ModelBudget = {
      admit: dailyShare.admit,
      spent: (event) => {
        told.push(`${event.participantId}:${event.chatId}:${event.usage.totalTokens}`);
        return dailyShare.spent?.(event);
      },
    };
    const { call } = await chatServer({ plan: () => [], endpoints: { model: costlyModel, modelBudget } });
    await call("POST", "/api/chats", { id: "c" });
    for (const text of ["one", "two"]) expect((await call("POST", "/api/chats/c/messages", { text })).status).toBe(200);
    await vi.waitFor(() => expect(told).toEqual(["alice:c:120000", "alice:c:120000"]), { timeout: 20_000 });

    const before = (await call("GET", "/api/chats/c")).body;
    const refused = await call("POST", "/api/chats/c/messages", { text: "three" });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "over_budget",
      message: "You have used today's share of the tutor. It is yours again tomorrow.",
    });
    // Nothing of the refused message is kept, and the model was not asked.
    expect((await call("GET", "/api/chats/c")).body).toEqual(before);
    expect(told).toHaveLength(2);

    // Another student has a share of their own.
    await call("POST", "/api/chats", { id: "b" }, "bob");
    expect((await call("POST", "/api/chats/b/messages", { text: "hi" }, "bob")).status).toBe(200);
  });
});
