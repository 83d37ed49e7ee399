import { useEffect, useRef, useState } from "react";
import type { ExecuteCodeView } from "../view/index.js";

/** While the model writes the program, the card shows its progress at most this often. */
export const STREAMING_FRAME_MS = 80;

/**
 * The view to show. While the model writes the program, runtimes hand over a
 * delta every few milliseconds; the card catches up with them at most once
 * per `intervalMs`, so a long program costs a bounded number of renders.
 * Every other change, such as the code completing, shows at once.
 */
export function useStreamingView(view: ExecuteCodeView, intervalMs = STREAMING_FRAME_MS): ExecuteCodeView {
  const [shown, setShown] = useState(view);
  const shownAt = useRef(Number.NEGATIVE_INFINITY);
  const holding = view.phase === "writing" && shown.phase === "writing";

  useEffect(() => {
    if (shown === view) return;
    const show = () => {
      shownAt.current = performance.now();
      setShown(view);
    };
    if (!holding) return show();
    const timer = setTimeout(show, Math.max(0, shownAt.current + intervalMs - performance.now()));
    return () => clearTimeout(timer);
  }, [view, shown, holding, intervalMs]);

  return holding ? shown : view;
}
