// A running chat carries a heartbeat: the server running it marks it every
// few seconds. One that misses its beats is over (its server went away); one
// that keeps them is never taken for orphaned, whichever server reads it.
import { describe, expect, it } from "vitest";
import { createSqliteChatStore } from "../../../src/server";
import { chatServer, storedChat } from "./fixtures";

const runningChat = (id: string, updatedAt: number) =>
  storedChat({
    id,
    owner: "alice",
    status: "running",
    version: 1,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }],
    updatedAt,
  });

describe("the heartbeat of a running chat", () => {
  it("marks only the chat still running at the version it was started with", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    await store.insert(runningChat("beating", 1));
    await store.touch!({ owner: "alice", id: "beating", version: 1 }, 100);
    expect((await store.get("alice", "beating"))?.updatedAt).toBe(100);
    // A later run (another version) or an ended chat is not marked by an old beat.
    await store.touch!({ owner: "alice", id: "beating", version: 0 }, 200);
    await store.insert({ ...runningChat("ended", 1), status: "idle" });
    await store.touch!({ owner: "alice", id: "ended", version: 1 }, 200);
    expect((await store.get("alice", "beating"))?.updatedAt).toBe(100);
    expect((await store.get("alice", "ended"))?.updatedAt).toBe(1);
  });

  it("a chat that missed its beats is ended when read; one that keeps them stays running", async () => {
    const time = Date.parse("2026-12-01T12:00:00Z");
    const store = await createSqliteChatStore({ path: ":memory:" });
    await store.insert(runningChat("missed", time - 30_000));
    await store.insert(runningChat("beating", time - 4_000));
    const { call } = await chatServer({ plan: () => [], store, endpoints: { now: () => time } });
    expect((await call("GET", "/api/chats/missed")).body).toMatchObject({
      status: "error",
      error: "The server stopped while answering.",
    });
    expect((await call("GET", "/api/chats/beating")).body).toMatchObject({ status: "running" });
  });
});
