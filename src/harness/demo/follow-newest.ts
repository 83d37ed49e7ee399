// The thread follows new output, but never past the top of the newest card:
// its title, phase and Stop stay in view while it prints. Once the card has
// ended, its result may take the top instead, so the tutor's reply under it
// starts in view: the figures a succeeded card drew (shown whole where the
// window allows), or the words that say why a failed one failed.
import { type RefObject, useCallback, useEffect, useState } from "react";
import { EXECUTE_CODE_CARD, executeCodePart } from "../../testing/selectors.js";

/** Room kept above the newest card when the thread stops there. */
const ROOM_ABOVE = 8;
/** An ended card's result, by phase: the thread may go on past the card's top as far as the result's. */
const RESULTS: ReadonlyArray<readonly [phase: string, result: string]> = [
  ['[data-phase="succeeded"]', executeCodePart("figures")],
  // Why it failed, in words; the error's own line is the traceback's last, further down.
  ['[data-phase="failed"]', executeCodePart("explanation")],
];
/** How much of the reply under an ended card is brought into view: its first lines. */
const REPLY_ROOM = 72;
/** How near the end of the thread counts as at its end. */
const AT_END = 4;

/**
 * Scrolls `scroller` as `content` grows, while the reader follows: down to
 * the end, or to the newest card's top (the newest message's, when it holds
 * no card; once the card has ended, far enough to show its result and the
 * reply's first lines, never past the result's top), whichever comes first. The reader follows from the start, after
 * sending a message, and whenever they scroll to the end; scrolling up (by
 * any means but the thread shrinking) ends it. Only ever scrolls down: a reader who jumped past the card's top
 * stays where they are.
 *
 * Returns whether the reader is above the thread's end, for a Jump to latest
 * outside the thread (where it covers none of it), and that jump.
 */
export function useFollowNewest(
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): { aboveEnd: boolean; jumpToEnd: () => void } {
  const [aboveEnd, setAboveEnd] = useState(false);
  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner) return;
    let following = true;
    // The scroll position this hook set last: a scroll to anywhere else is not its own.
    let placed: number | null = null;
    let messageCount = 0;
    const end = () => box.scrollHeight - box.clientHeight;
    const stop = () => {
      const messages = inner.querySelectorAll<HTMLElement>(".demo-message");
      const newest = messages[messages.length - 1];
      if (!newest) return end();
      const cards = newest.querySelectorAll<HTMLElement>(EXECUTE_CODE_CARD);
      const card = cards[cards.length - 1];
      const topOf = (element: Element) =>
        element.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      let target = topOf(card ?? newest) - ROOM_ABOVE;
      const [, part] = (card && RESULTS.find(([phase]) => card.matches(phase))) ?? [];
      const result = part ? card?.querySelector<HTMLElement>(part) : null;
      if (card && result) {
        const top = topOf(result);
        // The result whole, and the reply's first lines under the card, where the window has room for them.
        const reply = Math.min(topOf(newest) + newest.offsetHeight, topOf(card) + card.offsetHeight + REPLY_ROOM);
        const bottom = Math.max(top + result.offsetHeight, reply);
        target = Math.max(target, Math.min(bottom + ROOM_ABOVE - box.clientHeight, top - ROOM_ABOVE));
      }
      return Math.min(end(), Math.max(0, target));
    };
    // Where the thread was, and its size, at the last scroll or change of size: the reader moving up from there stops the following.
    let last = 0;
    let seen = { height: 0, window: 0 };
    const look = () => {
      last = box.scrollTop;
      seen = { height: box.scrollHeight, window: box.clientHeight };
      setAboveEnd(last < end() - AT_END);
    };
    const follow = () => {
      look();
      const messages = inner.querySelectorAll<HTMLElement>(".demo-message");
      // The student sent a message: the thread goes on with it.
      if (messages.length > messageCount && messages[messages.length - 1]?.dataset.role === "user") following = true;
      messageCount = messages.length;
      if (!following) return;
      const target = stop();
      if (target > box.scrollTop + 1) {
        box.scrollTop = target;
        placed = box.scrollTop;
        last = placed;
      }
    };
    const onScroll = () => {
      const top = box.scrollTop;
      const ours = placed !== null && Math.abs(top - placed) < 1;
      // A thread that got shorter, or a window that got taller (the composer after a send), pulls the position up itself.
      const shrank = box.scrollHeight < seen.height || box.clientHeight > seen.window;
      placed = null;
      if (!ours) {
        if (top >= end() - AT_END) following = true;
        else if (top < last - 1 && !shrank) following = false;
      }
      look();
    };
    const resized = new ResizeObserver(follow);
    resized.observe(inner);
    resized.observe(box);
    box.addEventListener("scroll", onScroll, { passive: true });
    follow();
    return () => {
      resized.disconnect();
      box.removeEventListener("scroll", onScroll);
    };
  }, [scroller, content]);
  // At the end, the thread follows again (onScroll above).
  const jumpToEnd = useCallback(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [scroller]);
  return { aboveEnd, jumpToEnd };
}
