/** One highlighted run of text; `style` holds shiki's `--shiki-light` / `--shiki-dark` variables. */
export interface CodeToken {
  content: string;
  style: Record<string, string>;
}

export interface Tokenizer {
  /** Tokenizes whole lines, continuing from `state` (the grammar state after the previous lines). */
  tokenize(code: string, state?: unknown): { lines: CodeToken[][]; state: unknown };
}
