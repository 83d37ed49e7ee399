import { useEffect, useMemo, useRef, useState } from "react";
import { IncrementalHighlight } from "./incremental";
import { loadTokenizer, loadedTokenizer } from "./load-tokenizer";
import type { CodeToken, Tokenizer } from "./types";

/** Longest stretch of highlighting in one render; the rest continues in the next task. */
const STEP_BUDGET_MS = 12;
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
 * fewer lines while highlighting is still on its way (the rest render as
 * plain text). Highlights in the same render as the code it is given, so a
 * streamed update costs one commit, and grows incrementally: lines already
 * done are never tokenized again while the code grows at its end.
 */
export function useHighlightedLines(code: string, final: boolean): readonly CodeToken[][] {
  const [tokenizer, setTokenizer] = useState<Tokenizer | null>(loadedTokenizer);
  const engine = useRef<IncrementalHighlight | null>(null);
  // Bumped to carry on with a highlight that ran out of its budget.
  const [resume, setResume] = useState(0);

  useEffect(() => {
    if (tokenizer) return;
    let live = true;
    loadTokenizer().then(
      (loaded) => live && setTokenizer(loaded),
      // Without the highlighter the code stays readable as plain text.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [tokenizer]);

  const { lines, finished } = useMemo(() => {
    const cached = cache.get(code);
    if (cached) return { lines: cached, finished: true };
    if (!tokenizer) return { lines: NONE, finished: true };
    engine.current ??= new IncrementalHighlight(tokenizer);
    const highlight = engine.current;
    highlight.setCode(code);
    const start = performance.now();
    let done = highlight.step();
    while (!done && performance.now() - start < STEP_BUDGET_MS) done = highlight.step();
    const snapshot = highlight.snapshot();
    if (done && final) remember(code, snapshot);
    return { lines: snapshot, finished: done };
    // `resume` re-runs the step loop for the same code.
  }, [code, final, tokenizer, resume]);

  useEffect(() => {
    if (finished) return;
    const timer = setTimeout(() => setResume((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [finished, lines]);

  return lines;
}
