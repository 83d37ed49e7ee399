import { useEffect, useState } from "react";

/** Milliseconds since `active` last turned on, ticking while it stays on. */
export function useElapsed(active: boolean, intervalMs = 1000): number {
  const [clock, setClock] = useState(() => ({ start: Date.now(), now: Date.now() }));
  useEffect(() => {
    if (!active) return;
    const start = Date.now();
    setClock({ start, now: start });
    const timer = setInterval(() => setClock({ start, now: Date.now() }), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return active ? clock.now - clock.start : 0;
}
