/**
 * Remembers the `jti` of every accepted token until it expires, so that a
 * token works once. Expired entries are dropped as time passes, so memory
 * holds at most one token lifetime's worth of ids.
 */
export function createReplayGuard(now: () => number = () => Math.floor(Date.now() / 1000)) {
  const seen = new Map<string, number>();
  let nextSweep = 0;
  return {
    /** True the first time a jti is seen (and remembers it until `exp`), false for a replay. */
    firstUse(jti: string, exp: number): boolean {
      const time = now();
      if (time >= nextSweep) {
        for (const [id, expiry] of seen) if (expiry < time) seen.delete(id);
        nextSweep = time + 10;
      }
      if (seen.has(jti)) return false;
      seen.set(jti, exp);
      return true;
    },
    get size() {
      return seen.size;
    },
  };
}
