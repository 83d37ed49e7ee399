import { useEffect, useRef, useState } from "react";
import { IncrementalHighlight } from "./incremental";
import { loadTokenizer, loadedTokenizer } from "./load-tokenizer";
import type { CodeToken, Tokenizer } from "./types";

/** Longest stretch of highlighting done before yielding to the browser. */
const STEP_BUDGET_MS = 12;
/** While code streams, highlight at most this often: each pass has a fixed cost, deltas come faster. */
const STREAMING_INTERVAL_MS = 100;
const CACHE_SIZE = 64;

// Finished programs, keyed by their exact text, so a remounted card paints highlighted at once.
const cache = new Map<string, CodeToken[][]>();

function remember(code: string, lines: CodeToken[][]): void {
  cache.delete(code);
  cache.set(code, lines);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/**
 * Tokens for each line of `code` (`final` once it will not change again), or fewer lines while highlighting is still
 * on its way (the rest render as plain text). Grows incrementally while the
 * code streams and never drops back to plain text for lines already done.
 */
export function useHighlightedLines(code: string, final: boolean): readonly CodeToken[][] {
  const [tokenizer, setTokenizer] = useState<Tokenizer | null>(loadedTokenizer);
  const [lines, setLines] = useState<readonly CodeToken[][]>(() => cache.get(code) ?? []);
  const engine = useRef<IncrementalHighlight | null>(null);
  const lastPass = useRef(0);

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

  useEffect(() => {
    if (!tokenizer) return;
    const cached = cache.get(code);
    if (cached) {
      setLines(cached);
      return;
    }
    engine.current ??= new IncrementalHighlight(tokenizer);
    const highlight = engine.current;
    highlight.setCode(code);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const work = () => {
      const start = performance.now();
      lastPass.current = start;
      let finished = highlight.step();
      while (!finished && performance.now() - start < STEP_BUDGET_MS) finished = highlight.step();
      const snapshot = highlight.snapshot();
      setLines(snapshot);
      if (finished && final) remember(code, snapshot);
      else if (!finished) timer = setTimeout(work, 0);
    };
    // Deltas that come within the interval are highlighted together; the final code at once.
    const wait = final ? 0 : lastPass.current + STREAMING_INTERVAL_MS - performance.now();
    if (wait > 0) timer = setTimeout(work, wait);
    else work();
    return () => clearTimeout(timer);
  }, [code, final, tokenizer]);

  return lines;
}
