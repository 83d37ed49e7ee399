import { useEffect, useRef, useState } from "react";
import { IncrementalHighlight } from "./incremental";
import { loadTokenizer, loadedTokenizer } from "./load-tokenizer";
import type { CodeToken, Tokenizer } from "./types";

/** Longest stretch of highlighting done before yielding to the browser. */
const STEP_BUDGET_MS = 12;
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
      let finished = highlight.step();
      while (!finished && performance.now() - start < STEP_BUDGET_MS) finished = highlight.step();
      const snapshot = highlight.snapshot();
      setLines(snapshot);
      if (finished && final) remember(code, snapshot);
      else timer = setTimeout(work, 0);
    };
    work();
    return () => clearTimeout(timer);
  }, [code, final, tokenizer]);

  return lines;
}
