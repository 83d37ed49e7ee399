// Chats past their retention leave the SQLite store a few at a time, found
// by their last change: a large store's sweep never holds the server's
// thread for all of them at once.
import { describe, expect, it } from "vitest";
import { createSqliteChatStore } from "../../../src/server";
import { withTicks } from "../event-loop-turns";
import { storedChat } from "./fixtures";

const chat = (owner: string, id: string, updatedAt: number) => storedChat({ owner, id, updatedAt });

describe("the SQLite store's retention sweep", () => {
  it("deletes every expired chat and its title, a few a turn, and keeps the newer ones", async () => {
    const store = await createSqliteChatStore({ path: ":memory:" });
    for (let n = 0; n < 35; n++) {
      await store.insert(chat(`owner-${n % 3}`, `old-${n}`, 100 + n));
      await store.setListing(`owner-${n % 3}`, `old-${n}`, { title: `old ${n}` });
    }
    await store.insert(chat("owner-0", "recent", 10_000));
    const seen = await withTicks(async () => expect(await store.purge!(1_000)).toBe(35));
    // 35 chats, ten a turn: the event loop went round between the batches.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const owner of ["owner-0", "owner-1", "owner-2"]) {
      expect((await store.list(owner, { limit: 100 })).map((kept) => kept.id)).toEqual(
        owner === "owner-0" ? ["recent"] : [],
      );
    }
    // A chat made again under an old id starts untitled: its title went with it.
    await store.insert(chat("owner-1", "old-1", 20_000));
    expect((await store.list("owner-1", { limit: 1 }))[0]).toMatchObject({ id: "old-1", title: null });
    await store.close();
  });
});
