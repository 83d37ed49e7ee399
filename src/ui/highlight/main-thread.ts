// The highlighter on the main thread, for pages where no worker starts (no
// Worker, a blocked script, a bundler that did not ship it). Loaded lazily
// with the tokenizer, so the browser entry does not carry it.
import { IncrementalHighlight } from "./incremental.js";
import { tokenizerResource } from "./load-tokenizer.js";
import type { CodeToken } from "./types.js";

/** Longest stretch of highlighting before it yields to the page. */
const STEP_BUDGET_MS = 12;
/**
 * While code streams, finished lines are highlighted at most this often, and
 * the unfinished last line not at all: each pass has a fixed cost, and the
 * passes together should cost about one highlight of the whole program.
 */
const STREAMING_PASS_MS = 200;

/** One card's highlighting on the main thread, in steps of at most STEP_BUDGET_MS with a yield between them. */
export class MainThreadHighlighter {
  private engine: IncrementalHighlight | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPass = Number.NEGATIVE_INFINITY;
  private closed = false;
  private code = "";
  private final = false;

  constructor(
    /** Receives the lines so far, and whether they are all of the code's. */
    private readonly publish: (lines: CodeToken[][], done: boolean) => void,
    /** Time spent highlighting, for the benchmark. */
    private readonly spent: (ms: number) => void,
  ) {}

  update(code: string, final: boolean): void {
    this.code = code;
    this.final = final;
    this.schedule(final ? 0 : Math.max(0, this.lastPass + STREAMING_PASS_MS - performance.now()));
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delay);
  }

  private async pass(): Promise<void> {
    this.timer = null;
    const tokenizer = tokenizerResource.current() ?? (await tokenizerResource.load().catch(() => null));
    if (!tokenizer || this.closed) return;
    this.engine ??= new IncrementalHighlight(tokenizer);
    const { engine, final } = this;
    engine.setCode(this.code);
    const start = performance.now();
    this.lastPass = start;
    let done = engine.step(final);
    while (!done && performance.now() - start < STEP_BUDGET_MS) done = engine.step(final);
    this.spent(performance.now() - start);
    this.publish(engine.snapshot(), done);
    // While streaming, lines that finish later wait for the next update.
    if (!done) this.schedule(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}
