import { useEffect, useState } from "react";

/** Milliseconds since the component mounted (or since `active` last turned on), ticking while active. */
export function useElapsed(active: boolean, intervalMs = 1000): number {
  const [start] = useState(() => Date.now());
  const [now, setNow] = useState(start);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now - start;
}
