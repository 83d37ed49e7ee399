"use client";

import { useEffect, useState, type RefObject } from "react";

/**
 * The tab stop of a scrolling area: 0 while it may scroll, none once it is
 * seen not to. A pane that shows all its text is no stop for the keyboard,
 * so a card has one stop per action. It starts focusable and is measured
 * only where the browser lays the page out anyway (a resize observation,
 * an animation frame, fonts that finished loading), so it never forces a
 * layout, and an area that grows scrollable is focusable again.
 */
export function useScrollFocus(ref: RefObject<HTMLElement | null>, content: unknown): 0 | undefined {
  const [scrolls, setScrolls] = useState(true);
  // Measured again with new content: it is what may make the area scroll.
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = () =>
      setScrolls(element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const frame = requestAnimationFrame(measure);
    document.fonts?.addEventListener("loadingdone", measure);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      document.fonts?.removeEventListener("loadingdone", measure);
    };
  }, [ref, content]);
  return scrolls ? 0 : undefined;
}
