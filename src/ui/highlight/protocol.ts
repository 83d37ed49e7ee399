// Messages between the page and the highlighting worker (highlight-worker.ts).
// Tokens travel compactly: a line is [text, style, text, style, …] where a
// style is an index into a table that only grows, and each message carries
// the table's new entries, so the page builds few objects and shares styles.

/** A line as text and style indexes, alternating. */
export type EncodedLine = Array<string | number>;

export type ToWorker =
  /** Highlight this card's program (all of it, the unfinished last line too). */
  | { type: "highlight"; session: number; seq: number; code: string }
  /** The card has gone. */
  | { type: "close"; session: number }
  /** Started by the app ahead of any card: compile the grammar's common patterns while none waits. */
  | { type: "warm-up" };

export type FromWorker =
  | { type: "ready" }
  | {
      type: "lines";
      session: number;
      /** The `seq` of the request these lines answer. */
      seq: number;
      /** Index of the first line in `lines`; the page drops what it held from here on. */
      from: number;
      lines: EncodedLine[];
      /** The unfinished last line, when it was tokenized. */
      tail: EncodedLine | null;
      /** New entries of the style table, from index `stylesFrom`. */
      styles: Array<Record<string, string>>;
      stylesFrom: number;
      /** Every line of the request's code is in. */
      done: boolean;
      /** Time the worker has spent highlighting so far, for the benchmark. */
      busyMs: number;
    }
  | { type: "failed"; message: string };
