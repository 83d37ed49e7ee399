// Storage per participant is bounded: a number of chats, a number of
// messages per chat. A participant at a bound gets a clear refusal and
// loses nothing; nobody else is touched.
import { describe, expect, it } from "vitest";
import { createSqliteChatStore } from "../../../src/server";
import { chatServer } from "./fixtures";

describe("quotas per participant", () => {
  it("a participant keeps at most maxChatsPerParticipant chats; deleting one makes room, and others are not touched", async () => {
    const { call } = await chatServer({ plan: () => [], endpoints: { limits: { maxChatsPerParticipant: 3 } } });
    for (const id of ["a", "b", "c"]) expect((await call("POST", "/api/chats", { id })).status).toBe(201);
    const refused = await call("POST", "/api/chats", { id: "d" });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "too_many_chats",
      message: "You keep 3 chats, the most allowed: delete one to start another.",
    });
    // The AI SDK path, which makes a chat on its first message, is bound the same way.
    const viaChat = await call("POST", "/api/chat", {
      id: "e",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }],
    });
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
    expect(refused.body).toMatchObject({
      error: "chat_full",
      message: "This chat holds 2 messages, the most allowed: start a new chat to go on.",
    });
    expect((await call("GET", "/api/chats/c")).body).toEqual(before);
  });

  it("a participant's chats take at most maxStoredBytesPerParticipant bytes; past it new messages and chats are refused, deleting makes room", async () => {
    const { call } = await chatServer({
      plan: () => [],
      endpoints: { limits: { maxStoredBytesPerParticipant: 150_000 } },
    });
    await call("POST", "/api/chats", { id: "big" });
    const long = "x".repeat(90_000);
    expect((await call("POST", "/api/chats/big/messages", { text: long })).status).toBe(200);
    expect((await call("POST", "/api/chats/big/messages", { text: long })).status).toBe(200);
    const before = (await call("GET", "/api/chats/big")).body;
    const refused = await call("POST", "/api/chats/big/messages", { text: "one more" });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe("storage_full");
    expect(refused.body.message).toMatch(
      /^Your chats take 1\d\d KB, the most allowed is 147 KB: delete some to go on\.$/,
    );
    expect((await call("POST", "/api/chats", { id: "another" })).status).toBe(413);
    expect((await call("GET", "/api/chats/big")).body).toEqual(before);
    // Someone else is not touched.
    expect((await call("POST", "/api/chats", { id: "bobs" }, "bob")).status).toBe(201);
    expect((await call("POST", "/api/chats/bobs/messages", { text: long }, "bob")).status).toBe(200);
    // Deleting makes room again.
    expect((await call("DELETE", "/api/chats/big")).status).toBe(204);
    expect((await call("POST", "/api/chats", { id: "another" })).status).toBe(201);
  });

  it("requests that come at once count each other: a burst cannot store many times the share", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    const { call } = await chatServer({
      plan: () => [],
      store,
      endpoints: { limits: { maxStoredBytesPerParticipant: 150_000 } },
    });
    const ids = Array.from({ length: 10 }, (_, i) => `burst-${i}`);
    for (const id of ids) expect((await call("POST", "/api/chats", { id })).status).toBe(201);
    const text = "y".repeat(20_000);
    const answers = await Promise.all(ids.map((id) => call("POST", `/api/chats/${id}/messages`, { text })));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(2);
    expect(
      answers.filter((answer) => answer.status === 413).every((answer) => answer.body.error === "storage_full"),
    ).toBe(true);
    expect(await store.usage!("alice")).toBeLessThan(2 * 150_000);
  });

  it("chats unchanged for longer than retentionMs are deleted, every owner's; newer ones stay", async () => {
    let time = Date.parse("2026-01-01T00:00:00Z");
    const store = await createSqliteChatStore({ path: ":memory:" });
    const { call } = await chatServer({
      plan: () => [],
      store,
      endpoints: { retentionMs: 7 * 86_400_000, now: () => time },
    });
    expect((await call("POST", "/api/chats", { id: "old" })).status).toBe(201);
    expect((await call("POST", "/api/chats", { id: "bobs-old" }, "bob")).status).toBe(201);
    time += 6 * 86_400_000;
    expect((await call("POST", "/api/chats", { id: "newer" })).status).toBe(201);
    // Eight days after the first ones (and more than an hour after the last sweep), a request sweeps.
    time += 2 * 86_400_000;
    await call("GET", "/api/chats");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call("GET", "/api/chats")).body.chats.map((chat: { id: string }) => chat.id)).toEqual(["newer"]);
    expect((await call("GET", "/api/chats", undefined, "bob")).body.chats).toEqual([]);
    expect((await call("GET", "/api/chats/old")).status).toBe(404);
  });
});

describe("a bound on the whole store", () => {
  it("everyone's chats take at most maxStoredBytes: past it new chats and messages are refused (507) for all, nothing stored is lost, and deleting makes room", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    // SQLite counts its pages in use: the empty store's tables, and what the chats add.
    const empty = await store.totalUsage!();
    const { call } = await chatServer({
      plan: () => [],
      store,
      endpoints: { limits: { maxStoredBytes: empty + 400_000 } },
    });
    const long = "x".repeat(90_000);
    const kept: string[] = [];
    let refused: Awaited<ReturnType<typeof call>> | null = null;
    for (let n = 0; n < 20 && !refused; n++) {
      const participant = `student-${n}`;
      const created = await call("POST", "/api/chats", { id: "c" }, participant);
      if (created.status !== 201) {
        refused = created;
        break;
      }
      const sent = await call("POST", "/api/chats/c/messages", { text: long }, participant);
      if (sent.status === 200) kept.push(participant);
      else refused = sent;
    }
    expect(kept.length).toBeGreaterThan(0);
    expect(refused?.status).toBe(507);
    expect(refused?.body).toMatchObject({
      error: "store_full",
      message: expect.stringMatching(
        /^This server's store of chats is full \(\d+ KB for everyone\).*Your chats are kept/,
      ),
    });
    expect(await store.totalUsage!()).toBeLessThan(empty + 400_000 + 200_000);
    // Nobody can add: not the ones who stored, not a newcomer.
    const before = (await call("GET", "/api/chats/c", undefined, kept[0])).body;
    expect((await call("POST", "/api/chats/c/messages", { text: "more" }, kept[0])).status).toBe(507);
    expect((await call("POST", "/api/chats", { id: "new" }, "newcomer")).status).toBe(507);
    // What was stored is all there.
    expect((await call("GET", "/api/chats/c", undefined, kept[0])).body).toEqual(before);
    for (const participant of kept)
      expect((await call("GET", "/api/chats/c", undefined, participant)).status).toBe(200);
    // Deleting makes room again.
    for (const participant of kept.slice(0, 2)) {
      expect((await call("DELETE", "/api/chats/c", undefined, participant)).status).toBe(204);
    }
    expect((await call("POST", "/api/chats", { id: "new" }, "newcomer")).status).toBe(201);
  });

  it("a few who fill the store do not stop a class: one who keeps little goes on into its last tenth", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    const empty = await store.totalUsage!();
    const { call } = await chatServer({
      plan: () => [],
      store,
      endpoints: { limits: { maxStoredBytes: empty + 2_000_000, maxStoredBytesPerParticipant: 10_000_000 } },
    });
    // A heavy participant fills the store with a chat of their own.
    expect((await call("POST", "/api/chats", { id: "c" }, "heavy")).status).toBe(201);
    let sent = 200;
    for (let n = 0; n < 40 && sent === 200; n++)
      sent = (await call("POST", "/api/chats/c/messages", { text: "x".repeat(90_000) }, "heavy")).status;
    expect(sent).toBe(507);
    // A student who keeps little is still taken, up to a tenth past the bound; the heavy one is not.
    expect((await call("POST", "/api/chats", { id: "c" }, "student")).status).toBe(201);
    expect((await call("POST", "/api/chats/c/messages", { text: "print(1)" }, "student")).status).toBe(200);
    expect((await call("POST", "/api/chats/c/messages", { text: "more" }, "heavy")).status).toBe(507);
    expect(await store.totalUsage!()).toBeLessThan(empty + 2_200_000);
  });

  it("with no bound (the default) the store is not measured in all", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    let measured = 0;
    const totalUsage = store.totalUsage!.bind(store);
    store.totalUsage = async () => {
      measured++;
      return totalUsage();
    };
    const { call } = await chatServer({ plan: () => [], store });
    expect((await call("POST", "/api/chats", { id: "c" })).status).toBe(201);
    expect(measured).toBe(0);
  });
});
