export interface RateLimit {
  /** Executions allowed per window and key. */
  max: number;
  windowMs: number;
}

/** A sliding-window limit per key (tenant and user). */
export function createRateLimiter({ max, windowMs }: RateLimit, now: () => number = Date.now) {
  const hits = new Map<string, number[]>();
  return {
    /** Counts one execution, or says how long to wait when the limit is reached. */
    take(key: string): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const time = now();
      const recent = (hits.get(key) ?? []).filter((t) => time - t < windowMs);
      if (recent.length >= max) {
        hits.set(key, recent);
        return { allowed: false, retryAfterMs: windowMs - (time - recent[0]!) };
      }
      recent.push(time);
      hits.set(key, recent);
      return { allowed: true };
    },
  };
}
