export interface RateLimit {
  /** Executions allowed per window and key. */
  max: number;
  windowMs: number;
}

/** A sliding-window limit per key (tenant and user). */
export function createRateLimiter({ max, windowMs }: RateLimit, now: () => number = Date.now) {
  const hits = new Map<string, number[]>();
  let swept = now();
  return {
    /** Counts one execution, or says how long to wait when the limit is reached. */
    take(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const time = now();
      // Keys with nothing in the window are forgotten, so that many callers do not add up.
      if (time - swept >= windowMs) {
        for (const [k, times] of hits) if (time - times[times.length - 1]! >= windowMs) hits.delete(k);
        swept = time;
      }
      const recent = (hits.get(key) ?? []).filter((t) => time - t < windowMs);
      if (recent.length >= max) {
        if (recent.length > 0) hits.set(key, recent);
        return { allowed: false, retryAfterMs: recent.length > 0 ? windowMs - (time - recent[0]!) : windowMs };
      }
      recent.push(time);
      hits.set(key, recent);
      return { allowed: true };
    },
  };
}
