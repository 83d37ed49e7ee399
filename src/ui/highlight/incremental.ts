import type { CodeToken, Tokenizer } from "./types.js";

/**
 * Highlights a program that grows at its end, as streamed tool arguments do,
 * without re-highlighting what is already done: finished lines are tokenized
 * once and the grammar state after them carries on to the next batch. An edit
 * anywhere but the end starts over. Work is done in small steps so that the
 * caller can yield to the browser between them.
 */
export class IncrementalHighlight {
  private code = "";
  /** Length of the prefix of `code` whose lines are tokenized for good. */
  private doneLength = 0;
  private lines: CodeToken[][] = [];
  private state: unknown = undefined;
  /** Tokens of the last, unfinished line, and the text they were made for. */
  private tail: { text: string; tokens: CodeToken[] } | null = null;
  /** How often an edit before the end made it start over; lines reported before a restart are void. */
  restarts = 0;

  constructor(
    private readonly tokenizer: Tokenizer,
    /** About what a collapsed card shows, so the first step colours the visible lines with the least work. */
    private readonly linesPerStep = 24,
    /**
     * A step also ends before it would read more than this many characters,
     * so that a step of long lines costs about as much as one of short ones;
     * a line longer than this is a step of its own (the tokenizer colours
     * only its first MAX_HIGHLIGHTED_LINE characters).
     */
    private readonly charsPerStep = 3000,
  ) {}

  /** Sets the program to highlight; keeps the finished lines it shares with the last one. */
  setCode(code: string): void {
    if (!code.startsWith(this.code.slice(0, this.doneLength))) {
      this.doneLength = 0;
      this.lines = [];
      this.state = undefined;
      this.restarts++;
    }
    this.code = code;
    if (this.tail && this.tail.text !== code.slice(this.doneLength)) this.tail = null;
  }

  /** True when every line of the current program is highlighted. */
  get done(): boolean {
    return this.doneLength === this.code.length || this.tail !== null;
  }

  /** True while finished lines wait to be highlighted; the unfinished last line does not count. */
  get pendingLines(): boolean {
    return this.code.indexOf("\n", this.doneLength) !== -1;
  }

  /**
   * Highlights the next batch of lines, and the unfinished last line only
   * `withTail`: while code streams, that line changes with every delta.
   * Returns true when nothing more is to be done.
   */
  step(withTail = true): boolean {
    if (this.done) return true;
    const rest = this.code.slice(this.doneLength);
    let cut = -1;
    let from = 0;
    for (let n = 0; n < this.linesPerStep; n++) {
      const newline = rest.indexOf("\n", from);
      if (newline === -1 || (cut !== -1 && newline > this.charsPerStep)) break;
      cut = newline;
      from = newline + 1;
    }
    if (cut === -1) {
      if (!withTail) return true;
      // Only the unfinished last line is left: tokenize it without committing.
      this.tail = { text: rest, tokens: this.tokenizer.tokenize(rest, this.state).lines[0] ?? [] };
      return true;
    }
    const chunk = rest.slice(0, cut);
    const { lines, state } = this.tokenizer.tokenize(chunk, this.state);
    this.lines = this.lines.concat(lines);
    this.state = state;
    this.doneLength += cut + 1;
    return this.done;
  }

  /** The finished lines from `from` on (they do not change until a restart), and the unfinished last line if it has been tokenized. */
  linesFrom(from: number): { lines: CodeToken[][]; tail: CodeToken[] | null } {
    return { lines: this.lines.slice(from), tail: this.tail?.tokens ?? null };
  }

  /** How many finished lines are tokenized. */
  get finishedLines(): number {
    return this.lines.length;
  }

  /** Tokens per line so far; finished lines keep their identity between calls. */
  snapshot(): CodeToken[][] {
    return this.tail ? [...this.lines, this.tail.tokens] : this.lines.slice();
  }
}
