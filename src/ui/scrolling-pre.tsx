"use client";

import type { ComponentProps, RefObject } from "react";
import { cn } from "./cn.js";
import { useFollowEnd } from "./use-follow-end.js";
import { useScrollFocus } from "./use-scroll-focus.js";

export interface ScrollingPreProps extends Omit<ComponentProps<"pre">, "ref" | "tabIndex" | "onScroll"> {
  /** Keep to the end while `followed` grows, unless the reader scrolled up. */
  follow: boolean;
  /** What the body shows: each change is followed. */
  followed: unknown;
  /** Follow in the next animation frame rather than in the commit (see useFollowEnd). */
  followInFrame?: boolean;
  /** What may make the body start or stop scrolling: each change measures it again. */
  measureKey: unknown;
  /** The id of the pane's name: a body that scrolls, and so takes the focus, is a document named by it (not a region: that would be a landmark per pane). */
  labelledBy?: string;
  /** The element, for a pane that scrolls to a line of its own. */
  elementRef?: RefObject<HTMLPreElement | null>;
}

/** The scrolling body of a pane (the code, an output stream): one way to follow its end and to be a keyboard stop. */
export function ScrollingPre({
  follow,
  followed,
  followInFrame = false,
  measureKey,
  elementRef,
  labelledBy,
  className,
  ...props
}: ScrollingPreProps) {
  const followEnd = useFollowEnd<HTMLPreElement>(follow, followed, followInFrame, elementRef);
  // A stop for the keyboard only while it scrolls.
  const tabStop = useScrollFocus(followEnd.ref, measureKey);
  return (
    <pre
      ref={followEnd.ref}
      tabIndex={tabStop}
      {...(tabStop === undefined ? {} : { role: "document", "aria-labelledby": labelledBy })}
      className={cn("ecu-scroll", className)}
      onScroll={followEnd.onScroll}
      {...props}
    />
  );
}
