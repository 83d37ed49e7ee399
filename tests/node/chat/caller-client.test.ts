// Where a request came from reaches the tools, so that caps per client hold
// however many identities one person has.
import { describe, expect, it } from "vitest";
import { createChatEndpoints, createSqliteChatStore, type ServerToolsContext } from "../../../src/server";
import { plannedModel, serverTools } from "./fixtures";

describe("the caller's client", () => {
  it("is handed to the tools of the run its request starts, and left out where the host says none", async () => {
    const seen: ServerToolsContext[] = [];
    const runs: string[] = [];
    const chats = createChatEndpoints({
      store: await createSqliteChatStore({ path: ":memory:" }),
      model: plannedModel(() => []).model,
      tools: (context) => {
        seen.push(context);
        return serverTools(runs);
      },
    });
    const post = async (chatId: string, caller: { participantId: string; client?: string }) => {
      const json = { "content-type": "application/json", accept: "application/json" };
      const created = await chats.handle(
        new Request("http://chat.test/api/chats", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ id: chatId }),
        }),
        caller,
      );
      expect(created?.status).toBe(201);
      const answered = await chats.handle(
        new Request(`http://chat.test/api/chats/${chatId}/messages`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ text: "hello" }),
        }),
        caller,
      );
      expect(answered?.status).toBe(200);
    };
    await post("from-afar", { participantId: "ada", client: "203.0.113.7" });
    expect(seen.filter((context) => context.chatId === "from-afar").map((context) => context.client)).toContain(
      "203.0.113.7",
    );
    await post("nearby", { participantId: "ada" });
    expect(seen.filter((context) => context.chatId === "nearby").every((context) => !("client" in context))).toBe(true);
  });
});
