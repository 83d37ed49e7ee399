/** Bytes a client may be sent from the chat's reads in a window. */
export interface ReadBudget {
  bytes: number;
  windowMs: number;
}

/**
 * What the chat's reads (GETs) cost each client, in the bytes they were
 * sent: a request is refused while the client's last window already holds
 * its budget, and charged once its answer is sent (a stream, when it ends).
 * Counted in bytes, not requests: one large chat read over and over costs
 * the server what a thousand small ones do.
 */
export function createReadBudget({ bytes, windowMs }: ReadBudget, now: () => number = Date.now) {
  const sent = new Map<string, Array<[at: number, bytes: number]>>();
  let swept = now();
  const recent = (key: string, time: number) => (sent.get(key) ?? []).filter(([at]) => time - at < windowMs);
  return {
    /** Whether `key` may read now; if not, how long until it may. */
    check(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const time = now();
      // Keys with nothing in the window are forgotten, so that many callers do not add up.
      if (time - swept >= windowMs) {
        for (const [k, entries] of sent) if (time - entries.at(-1)![0] >= windowMs) sent.delete(k);
        swept = time;
      }
      const entries = recent(key, time);
      if (entries.length) sent.set(key, entries);
      else sent.delete(key);
      let total = entries.reduce((sum, [, size]) => sum + size, 0);
      if (total < bytes) return { allowed: true };
      // Allowed again once enough of the window's oldest answers have aged out.
      for (const [at, size] of entries) {
        total -= size;
        if (total < bytes) return { allowed: false, retryAfterMs: windowMs - (time - at) };
      }
      return { allowed: false, retryAfterMs: windowMs };
    },
    /** Counts `size` bytes sent to `key`. */
    charge(key: string, size: number) {
      if (size <= 0) return;
      const entries = sent.get(key) ?? [];
      entries.push([now(), size]);
      sent.set(key, entries);
    },
  };
}
