/** Bytes a client may be sent from the chat's reads in a window. */
export interface ReadBudget {
  bytes: number;
  windowMs: number;
}

/**
 * What the chat's reads (GETs) cost each key, in the bytes they were sent:
 * a request is refused while the key's last window already holds its
 * budget, and charged once its answer is sent (a stream, when it ends).
 * Counted in bytes, not requests: one large chat read over and over costs
 * the server what a thousand small ones do. Kept per second, so a check
 * looks at no more entries than the window has seconds.
 */
export function createReadBudget({ bytes, windowMs }: ReadBudget, now: () => number = Date.now) {
  // Per key: the bytes sent in each second of the window, oldest first.
  const sent = new Map<string, Array<[second: number, bytes: number]>>();
  let swept = now();
  const windowSeconds = Math.max(1, Math.ceil(windowMs / 1000));
  const recent = (key: string, second: number) => {
    const entries = (sent.get(key) ?? []).filter(([at]) => second - at < windowSeconds);
    if (entries.length) sent.set(key, entries);
    else sent.delete(key);
    return entries;
  };
  return {
    /** Whether `key` may read now; if not, how long until it may. */
    check(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const time = now();
      const second = Math.floor(time / 1000);
      // Keys with nothing in the window are forgotten, so that many callers do not add up.
      if (time - swept >= windowMs) {
        for (const [k, entries] of sent) if (second - entries.at(-1)![0] >= windowSeconds) sent.delete(k);
        swept = time;
      }
      const entries = recent(key, second);
      let total = entries.reduce((sum, [, size]) => sum + size, 0);
      if (total < bytes) return { allowed: true };
      // Allowed again once enough of the window's oldest seconds have aged out.
      for (const [at, size] of entries) {
        total -= size;
        if (total < bytes) return { allowed: false, retryAfterMs: (at + windowSeconds) * 1000 - time };
      }
      return { allowed: false, retryAfterMs: windowMs };
    },
    /** Counts `size` bytes sent to `key`. */
    charge(key: string, size: number) {
      if (size <= 0) return;
      const second = Math.floor(now() / 1000);
      const entries = sent.get(key) ?? [];
      const last = entries.at(-1);
      if (last && last[0] === second) last[1] += size;
      else entries.push([second, size]);
      sent.set(key, entries);
    },
  };
}
