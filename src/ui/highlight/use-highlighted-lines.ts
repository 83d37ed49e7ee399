import { useEffect, useMemo, useRef, useState } from "react";
import { useLazyResource } from "../lazy-resource.js";
import { IncrementalHighlight } from "./incremental.js";
import { tokenizerResource } from "./load-tokenizer.js";
import type { CodeToken } from "./types.js";

/** Longest stretch of highlighting in one render; the rest continues in the next task. */
const STEP_BUDGET_MS = 12;
/**
 * While code streams, finished lines are highlighted at most this often, and
 * the unfinished last line not at all: each pass has a fixed cost, and the
 * passes together should cost about one highlight of the whole program.
 */
const STREAMING_PASS_MS = 200;
const CACHE_SIZE = 64;
const NONE: readonly CodeToken[][] = [];

// Finished programs, keyed by their exact text, so a remounted card paints highlighted at once.
const cache = new Map<string, CodeToken[][]>();

function remember(code: string, lines: CodeToken[][]): void {
  cache.delete(code);
  cache.set(code, lines);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/**
 * Tokens for each line of `code` (`final` once it will not change again), or
 * fewer lines while highlighting is on its way (the rest render as plain
 * text). Highlights in the same render as the code it is given, so an update
 * costs one commit, and grows incrementally: lines already done are never
 * tokenized again while the code grows at its end.
 */
export function useHighlightedLines(code: string, final: boolean): readonly CodeToken[][] {
  const tokenizer = useLazyResource(tokenizerResource);
  const engine = useRef<IncrementalHighlight | null>(null);
  const lastPass = useRef(Number.NEGATIVE_INFINITY);
  // Bumped to carry on with highlighting that was cut short or held back.
  const [resume, setResume] = useState(0);

  const { lines, retryInMs } = useMemo(() => {
    const cached = cache.get(code);
    if (cached) return { lines: cached, retryInMs: null };
    if (!tokenizer) return { lines: NONE, retryInMs: null };
    engine.current ??= new IncrementalHighlight(tokenizer);
    const highlight = engine.current;
    highlight.setCode(code);
    const start = performance.now();
    const wait = final ? 0 : lastPass.current + STREAMING_PASS_MS - start;
    if (wait > 0) return { lines: highlight.snapshot(), retryInMs: highlight.pendingLines ? wait : null };
    lastPass.current = start;
    let done = highlight.step(final);
    while (!done && performance.now() - start < STEP_BUDGET_MS) done = highlight.step(final);
    const snapshot = highlight.snapshot();
    if (done && final) remember(code, snapshot);
    return { lines: snapshot, retryInMs: done ? null : 0 };
    // `resume` runs another pass over the same code.
  }, [code, final, tokenizer, resume]);

  useEffect(() => {
    if (retryInMs === null) return;
    const timer = setTimeout(() => setResume((n) => n + 1), retryInMs);
    return () => clearTimeout(timer);
  }, [retryInMs, lines]);

  return lines;
}
