// Storage per participant is bounded: a number of chats, a number of
// messages per chat. A participant at a bound gets a clear refusal and
// loses nothing; nobody else is touched.
import { describe, expect, it } from "vitest";
import { chatServer } from "./fixtures";

describe("quotas per participant", () => {
  it("a participant keeps at most maxChatsPerParticipant chats; deleting one makes room, and others are not touched", async () => {
    const { call } = await chatServer({ plan: () => [], endpoints: { limits: { maxChatsPerParticipant: 3 } } });
    for (const id of ["a", "b", "c"]) expect((await call("POST", "/api/chats", { id })).status).toBe(201);
    const refused = await call("POST", "/api/chats", { id: "d" });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "too_many_chats", message: "You keep 3 chats, the most allowed: delete one to start another." });
    // The AI SDK path, which makes a chat on its first message, is bound the same way.
    const viaChat = await call("POST", "/api/chat", { id: "e", messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] });
    expect(viaChat.status).toBe(429);
    expect((await call("GET", "/api/chats")).body.chats).toHaveLength(3);
    expect((await call("POST", "/api/chats", { id: "bobs" }, "bob")).status).toBe(201);
    expect((await call("DELETE", "/api/chats/a")).status).toBe(204);
    expect((await call("POST", "/api/chats", { id: "d" })).status).toBe(201);
  });

  it("a chat takes at most maxUserMessagesPerChat messages; the next is refused and the chat keeps what it had", async () => {
    const { call } = await chatServer({ plan: () => [], endpoints: { limits: { maxUserMessagesPerChat: 2 } } });
    await call("POST", "/api/chats", { id: "c" });
    for (const text of ["one", "two"]) expect((await call("POST", "/api/chats/c/messages", { text })).status).toBe(200);
    const before = (await call("GET", "/api/chats/c")).body;
    const refused = await call("POST", "/api/chats/c/messages", { text: "three" });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ error: "chat_full", message: "This chat holds 2 messages, the most allowed: start a new chat to go on." });
    expect((await call("GET", "/api/chats/c")).body).toEqual(before);
  });
});
