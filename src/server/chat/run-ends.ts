import type { ChatRecord } from "./store.js";

type ChatKey = Pick<ChatRecord, "owner" | "id">;

/** How long an end is remembered, for a request that read the chat running just before it ended. */
const REMEMBERED_MS = 30_000;

/**
 * Wakes the requests of this process that wait for a run of a chat to be
 * stored as ended, in memory: a waiter reads the store once, when it wakes.
 * A run on another server is not heard of here: waiters give up after their
 * own timeout and read the store then.
 */
export function createRunEnds() {
  const waiters = new Map<string, Set<() => void>>();
  const waitingPerOwner = new Map<string, number>();
  // The version of each chat's run that ended last, so that a request that read a run just before its end does not wait.
  const ended = new Map<string, number>();
  const keyOf = (chat: ChatKey) => `${chat.owner}\u0000${chat.id}`;
  return {
    /** Requests of `owner` waiting now, on any of their chats. */
    waiting: (owner: string): number => waitingPerOwner.get(owner) ?? 0,
    /**
     * Resolves when a run of the chat at `version` or later is told to have
     * ended (at once when it already was), or after `ms`.
     */
    wait(chat: ChatKey & Pick<ChatRecord, "version">, ms: number): Promise<void> {
      const key = keyOf(chat);
      if ((ended.get(key) ?? -1) >= chat.version) return Promise.resolve();
      waitingPerOwner.set(chat.owner, (waitingPerOwner.get(chat.owner) ?? 0) + 1);
      return new Promise((resolve) => {
        const set = waiters.get(key) ?? new Set<() => void>();
        waiters.set(key, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (!set.size) waiters.delete(key);
          const left = waitingPerOwner.get(chat.owner)! - 1;
          if (left) waitingPerOwner.set(chat.owner, left);
          else waitingPerOwner.delete(chat.owner);
          resolve();
        };
        const timer = setTimeout(done, ms);
        set.add(done);
      });
    },
    /** Tells the waiters that the run of `chat` (its running record) has been stored as ended. */
    notify(chat: ChatKey & Pick<ChatRecord, "version">): void {
      const key = keyOf(chat);
      ended.delete(key);
      ended.set(key, chat.version);
      setTimeout(() => ended.get(key) === chat.version && ended.delete(key), REMEMBERED_MS).unref?.();
      for (const wake of [...(waiters.get(key) ?? [])]) wake();
    },
  };
}
