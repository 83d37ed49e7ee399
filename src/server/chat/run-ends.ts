import type { ChatRecord } from "./store.js";

type ChatKey = Pick<ChatRecord, "owner" | "id">;

/**
 * Wakes the requests of this process that wait for a run of a chat to be
 * stored as ended. A run on another server is not heard of here: waiters
 * give up after their own timeout and read the store again.
 */
export function createRunEnds() {
  const waiters = new Map<string, Set<() => void>>();
  const keyOf = (chat: ChatKey) => `${chat.owner}\u0000${chat.id}`;
  return {
    /** Resolves when `notify` is called for the chat, or after `ms`. */
    wait(chat: ChatKey, ms: number): Promise<void> {
      const key = keyOf(chat);
      return new Promise((resolve) => {
        const set = waiters.get(key) ?? new Set<() => void>();
        waiters.set(key, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (!set.size) waiters.delete(key);
          resolve();
        };
        const timer = setTimeout(done, ms);
        set.add(done);
      });
    },
    notify(chat: ChatKey): void {
      for (const wake of [...(waiters.get(keyOf(chat)) ?? [])]) wake();
    },
  };
}
