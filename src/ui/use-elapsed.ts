import { useEffect, useLayoutEffect, useState } from "react";

// Layout effects warn in a server render on older Reacts; there nothing ticks anyway.
const useBeforePaint = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Milliseconds since `since` (ms since the epoch: a run's own start, by the
 * clock of whoever runs it), or, without one, since `active` last turned
 * on; ticking while `active` stays on, on the whole intervals from the
 * start, so the seconds shown turn when the run's do. Never below 0 (a
 * clock a little behind the runner's). The clock is read only in effects,
 * so a server render (or a prerender that forbids reading the time) always
 * sees 0.
 */
export function useElapsed(active: boolean, since: number | null = null, intervalMs = 1000): number {
  const [elapsed, setElapsed] = useState(0);
  // Before paint: a card that mounts in the middle of a run (a reload) never shows 0 first.
  useBeforePaint(() => {
    if (!active) return;
    const start = since ?? Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const now = Math.max(0, Date.now() - start);
      setElapsed(now);
      timer = setTimeout(tick, intervalMs - (now % intervalMs));
    };
    tick();
    return () => clearTimeout(timer);
  }, [active, since, intervalMs]);
  return active ? elapsed : 0;
}
