"use client";

import { useEffect, useLayoutEffect, useRef, type RefObject, type UIEvent } from "react";

/**
 * Keeps a scrolling element at its end while `active` and its `content`
 * grows, unless the reader has scrolled up to read; back at the end, it
 * follows again. Spread `ref` and `onScroll` on the element.
 *
 * Once `active` ends (the program or the run finished), the element goes
 * back to its start, unless the reader had scrolled away: a finished pane
 * reads from its first line, with what is folded below it.
 *
 * `inFrame` scrolls in the next animation frame, where the browser lays the
 * page out anyway, instead of in the commit, where reading the element's
 * height forces a layout inside React's task. `elementRef`, when given, is
 * the ref it fills.
 */
export function useFollowEnd<E extends HTMLElement>(
  active: boolean,
  content: unknown,
  inFrame: boolean,
  elementRef?: RefObject<E | null>,
) {
  const ownRef = useRef<E>(null);
  const ref = elementRef ?? ownRef;
  const following = useRef(true);
  /** Where the last scroll to the end left the element: only scrolling above it is the reader's. */
  const followedTo = useRef(0);
  const wasActive = useRef(active);

  useLayoutEffect(() => {
    const element = ref.current;
    if (wasActive.current && !active && following.current && element) element.scrollTop = 0;
    wasActive.current = active;
  }, [active, ref]);

  useLayoutEffect(() => {
    if (active && !inFrame) scrollToEnd(ref.current, following.current, followedTo);
  }, [active, content, inFrame, ref]);
  useEffect(() => {
    if (!active || !inFrame) return;
    const frame = requestAnimationFrame(() => scrollToEnd(ref.current, following.current, followedTo));
    return () => cancelAnimationFrame(frame);
  }, [active, content, inFrame, ref]);

  const onScroll = (event: UIEvent<E>) => {
    const element = event.currentTarget;
    // Within a few pixels of the end counts as at the end. The content may
    // have grown since the last scroll to the end (a frame may pass between
    // the two): that is not the reader scrolling up.
    if (element.scrollTop + element.clientHeight >= element.scrollHeight - 4) {
      following.current = true;
      followedTo.current = element.scrollTop;
    } else if (element.scrollTop < followedTo.current - 4) following.current = false;
  };
  return { ref, onScroll };
}

function scrollToEnd(element: HTMLElement | null, following: boolean, followedTo: { current: number }): void {
  if (!element || !following) return;
  element.scrollTop = element.scrollHeight;
  followedTo.current = element.scrollTop;
}
