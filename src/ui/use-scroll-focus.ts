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
  // One observer for the element's life: its size, and fonts that finished loading.
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = () => setScrolls(overflows(element));
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    document.fonts?.addEventListener("loadingdone", measure);
    return () => {
      observer.disconnect();
      document.fonts?.removeEventListener("loadingdone", measure);
    };
  }, [ref]);
  // New content, in the frame that lays it out: it is what may make the area scroll.
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const frame = requestAnimationFrame(() => setScrolls(overflows(element)));
    return () => cancelAnimationFrame(frame);
  }, [ref, content]);
  return scrolls ? 0 : undefined;
}

const overflows = (element: HTMLElement) =>
  element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1;
