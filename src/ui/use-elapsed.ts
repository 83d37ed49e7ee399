import { useEffect, useState } from "react";

/**
 * Milliseconds since `active` last turned on, ticking while it stays on.
 * The clock is read only in effects, so a server render (or a prerender
 * that forbids reading the time) always sees 0.
 */
export function useElapsed(active: boolean, intervalMs = 1000): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!active) return;
    const start = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Date.now() - start), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return active ? elapsed : 0;
}
