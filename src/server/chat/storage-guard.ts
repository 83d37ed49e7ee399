import type { ChatStore } from "./store.js";
import { HttpRefusal } from "../http/http.js";
import type { ChatLimits } from "./validate.js";

const HOUR_MS = 3_600_000;
/** Chats of a participant this small are taken into the store's last tenth (a class's ordinary students). */
const SMALL_HOLDER_BYTES = 256 * 1024;

const size = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, "")} GB`
    : bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`
      : `${Math.ceil(bytes / 1024)} KB`;

/**
 * What the store keeps, bounded: each participant's chats take at most
 * `maxStoredBytesPerParticipant`, everyone's together at most
 * `maxStoredBytes` (a tenth more for participants who keep under 256 KiB,
 * so that a few who fill it do not stop everyone), and with `retentionMs`
 * chats unchanged that long are
 * deleted (swept at most once an hour, as requests come).
 */
export function createStorageGuard({
  store,
  limits,
  retentionMs,
  now,
}: {
  store: ChatStore;
  limits: Pick<ChatLimits, "maxStoredBytesPerParticipant" | "maxStoredBytes">;
  retentionMs: number | undefined;
  now: () => number;
}) {
  let sweptAt = -Infinity;
  // Bytes that runs of this process are about to store, by owner: requests that come at once cannot all pass one check.
  const reserved = new Map<string, number>();
  let reservedInAll = 0;
  const release = (owner: string, bytes: number) => {
    const left = (reserved.get(owner) ?? bytes) - bytes;
    if (left > 0) reserved.set(owner, left);
    else reserved.delete(owner);
    reservedInAll -= bytes;
  };
  const bounded = Number.isFinite(limits.maxStoredBytes);
  return {
    /**
     * Refuses a participant whose chats take their share of the store (413),
     * and everyone once all chats take the whole store (507), counting what
     * runs in flight are about to store; otherwise holds
     * `bytes` (what this run is expected to store) for them until the
     * returned release is called, when the run's end is stored.
     */
    async admit(owner: string, bytes = 0): Promise<() => void> {
      reserved.set(owner, (reserved.get(owner) ?? 0) + bytes);
      reservedInAll += bytes;
      let ownUsage: number | undefined;
      let allUsage: number | undefined;
      try {
        [ownUsage, allUsage] = await Promise.all([store.usage?.(owner), bounded ? store.totalUsage?.() : undefined]);
      } catch (error) {
        release(owner, bytes);
        throw error;
      }
      const used = (ownUsage ?? 0) + (reserved.get(owner) ?? 0) - bytes;
      if (used >= limits.maxStoredBytesPerParticipant) {
        release(owner, bytes);
        throw new HttpRefusal(
          413,
          "storage_full",
          `Your chats take ${size(used)}, the most allowed is ${size(limits.maxStoredBytesPerParticipant)}: delete some to go on.`,
        );
      }
      // Everyone's chats together: not this participant's doing, so it says so, and what is stored stays. A
      // participant who keeps little goes on into a tenth more: a few who fill the store do not stop everyone.
      const light = (ownUsage ?? 0) < SMALL_HOLDER_BYTES;
      const room = light ? limits.maxStoredBytes * 1.1 : limits.maxStoredBytes;
      if (allUsage !== undefined && allUsage + reservedInAll - bytes >= room) {
        release(owner, bytes);
        throw new HttpRefusal(
          507,
          "store_full",
          `This server's store of chats is full (${size(limits.maxStoredBytes)} for everyone), so it takes no new chats or messages until older chats are deleted or expire. Your chats are kept; try again later.`,
        );
      }
      let released = false;
      return () => {
        if (!released) release(owner, bytes);
        released = true;
      };
    },
    /** Deletes chats past their retention, at most once an hour; a failed sweep is tried again later. */
    sweep(): void {
      if (retentionMs === undefined || !Number.isFinite(retentionMs) || !store.purge || now() - sweptAt < HOUR_MS)
        return;
      sweptAt = now();
      store.purge(now() - retentionMs).catch(() => (sweptAt = -Infinity));
    },
  };
}
