import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from "react";
import { withPythonLineBreaks } from "../../view/python-lines.js";
import { cachedLines, openSession, startHighlighter, type HighlightSession } from "./sessions.js";
import type { CodeToken } from "./types.js";

const NONE: readonly CodeToken[][] = [];
const none = () => NONE;
const noSubscription = () => () => undefined;

/**
 * Tokens for each line of `code` (`final` once it will not change again), or
 * fewer lines while highlighting is on its way (the rest render as plain
 * text). A program highlighted before shows highlighted in the first render;
 * any other is highlighted in a worker (or, without one, in small steps on
 * the main thread) and its lines arrive as they are done. Lines already done
 * are never tokenized again while the code grows at its end. Lines are
 * Python's: a lone `\r` ends one as `\r\n` and `\n` do.
 */
export function useHighlightedLines(program: string, final: boolean): readonly CodeToken[][] {
  const code = withPythonLineBreaks(program);
  const cached = cachedLines(code);
  const [session, setSession] = useState<HighlightSession | null>(null);
  const needed = !cached || session !== null;

  // Start the worker as early as a commit allows: before the browser paints
  // this first frame, rather than after it as a passive effect would.
  useLayoutEffect(() => {
    if (needed) startHighlighter();
  }, [needed]);

  useEffect(() => {
    if (!needed) return;
    const opened = openSession();
    setSession(opened);
    return () => opened.close();
  }, [needed]);

  // Posted in the commit, so that the worker works while the browser lays
  // out and paints the new code; a passive effect could run after the paint.
  useLayoutEffect(() => {
    if (!cached) session?.update(code, final);
  }, [session, code, final, cached]);

  const lines = useSyncExternalStore(session?.subscribe ?? noSubscription, session?.snapshot ?? none, none);
  return cached ?? lines;
}
