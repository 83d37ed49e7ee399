import type { ChatStore } from "./store.js";
import { ChatRequestError, type ChatLimits } from "./validate.js";

const HOUR_MS = 3_600_000;

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB` : `${Math.ceil(bytes / 1024)} KB`;

/**
 * What the store keeps, bounded: each participant's chats take at most
 * `maxStoredBytesPerParticipant`, and with `retentionMs` chats unchanged that
 * long are deleted (swept at most once an hour, as requests come).
 */
export function createStorageGuard({
  store,
  limits,
  retentionMs,
  now,
}: {
  store: ChatStore;
  limits: Pick<ChatLimits, "maxStoredBytesPerParticipant">;
  retentionMs: number | undefined;
  now: () => number;
}) {
  let sweptAt = -Infinity;
  return {
    /** Refuses what would add to a participant's chats once they take their share of the store. */
    async check(owner: string): Promise<void> {
      const used = (await store.usage?.(owner)) ?? 0;
      if (used < limits.maxStoredBytesPerParticipant) return;
      throw new ChatRequestError(
        413,
        "storage_full",
        `Your chats take ${size(used)}, the most allowed is ${size(limits.maxStoredBytesPerParticipant)}: delete some to go on.`,
      );
    },
    /** Deletes chats past their retention, at most once an hour; a failed sweep is tried again later. */
    sweep(): void {
      if (retentionMs === undefined || !Number.isFinite(retentionMs) || !store.purge || now() - sweptAt < HOUR_MS) return;
      sweptAt = now();
      store.purge(now() - retentionMs).catch(() => (sweptAt = -Infinity));
    },
  };
}
