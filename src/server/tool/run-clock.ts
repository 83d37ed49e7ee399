/** Default longest wait for a sandbox to start a program. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 60_000;

/**
 * The two limits of one call: a wait for the sandbox to start the program,
 * then the program's own run. Until the sandbox says the program started
 * (or it prints), the call may take both together, since a sandbox that
 * does not stream cannot tell waiting from running; once it has started,
 * only the run limit is left, counted from then. `ended` says which limit
 * aborted `signal`: `waited` (the sandbox said it queued the program and
 * never started it) or `ran`.
 */
export function runClock(timeoutMs: number, queueTimeoutMs: number) {
  const controller = new AbortController();
  let queued = false;
  let startedAt: number | null = null;
  let startedAtMs: number | undefined;
  let ended: "waited" | "ran" | null = null;
  const expire = (why: "waited" | "ran") => {
    ended = why;
    controller.abort(new DOMException("The call's time limit was reached.", "TimeoutError"));
  };
  let timer = setTimeout(() => expire("ran"), queueTimeoutMs + timeoutMs);
  return {
    signal: controller.signal,
    get ended() {
      return ended;
    },
    get startedAt() {
      return startedAt;
    },
    /** When the program started, in ms since the epoch by this server's clock: what the card's clock counts from. */
    get startedAtMs() {
      return startedAtMs;
    },
    /** The sandbox put the program in its queue: from now on the wait alone has its own limit. */
    queued() {
      if (queued || startedAt !== null || ended) return;
      queued = true;
      clearTimeout(timer);
      timer = setTimeout(() => expire("waited"), queueTimeoutMs);
    },
    /** The program started: its run limit counts from now. Returns when it started (`startedAtMs`). */
    started() {
      if (startedAt !== null || ended) return startedAtMs;
      startedAt = performance.now();
      startedAtMs = Date.now();
      clearTimeout(timer);
      timer = setTimeout(() => expire("ran"), timeoutMs);
      return startedAtMs;
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
