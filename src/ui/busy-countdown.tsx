"use client";

import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { useElapsed } from "./use-elapsed.js";

/** "Try again in N s", counting down from when the card learned of the limit. */
export function BusyCountdown({ retryAfterMs, labels }: { retryAfterMs: number; labels: ExecuteCodeLabels }) {
  const left = Math.max(0, retryAfterMs - useElapsed(true));
  const seconds = Math.ceil(left / 1000);
  return <>{seconds > 0 ? labels.busy(formatCount(seconds, labels.numbers)) : labels.busyNow}</>;
}
