// Where a card's program gets highlighted: in a Web Worker when the page can
// start one (shiki, the grammar's regular-expression compilation and the
// tokenizing all stay off the main thread), otherwise on the main thread in
// small steps with a yield between them (the same incremental highlighter).
// Nothing here starts before a card's first render has committed: the hook
// calls `preloadHighlighter` and `openSession` from effects only, so a server
// render never loads or runs the highlighter.
import { IncrementalHighlight } from "./incremental.js";
import { tokenizerResource } from "./load-tokenizer.js";
import type { EncodedLine, FromWorker, ToWorker } from "./protocol.js";
import type { CodeToken } from "./types.js";

/** Longest stretch of highlighting on the main thread before it yields (the fallback without a worker). */
const STEP_BUDGET_MS = 12;
/**
 * Without a worker, while code streams, finished lines are highlighted at
 * most this often, and the unfinished last line not at all: each pass has a
 * fixed cost, and the passes together should cost about one highlight of the
 * whole program.
 */
const STREAMING_PASS_MS = 200;
/** A worker that has not said it is ready by then is given up for the main thread. */
const WORKER_START_TIMEOUT_MS = 10_000;
const CACHE_SIZE = 64;

/** One card's highlighting. */
export interface HighlightSession {
  /** The program to highlight; `final` once it will not change again. */
  update(code: string, final: boolean): void;
  /** Tokens per line so far; a new array when something changed, finished lines keep their identity. */
  snapshot(): readonly CodeToken[][];
  subscribe(listener: () => void): () => void;
  close(): void;
}

// Finished programs, keyed by their exact text, so a remounted card paints highlighted at once.
const cache = new Map<string, CodeToken[][]>();

export function cachedLines(code: string): CodeToken[][] | undefined {
  return cache.get(code);
}

function remember(code: string, lines: CodeToken[][]): void {
  cache.delete(code);
  cache.set(code, lines);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** What both kinds of session share: the lines, the listeners, and remembering a finished program. */
abstract class BaseSession implements HighlightSession {
  protected lines: CodeToken[][] = [];
  private listeners = new Set<() => void>();
  protected code = "";
  protected final = false;

  abstract update(code: string, final: boolean): void;
  abstract close(): void;

  snapshot = (): readonly CodeToken[][] => this.lines;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  protected publish(lines: CodeToken[][], complete: boolean): void {
    this.lines = lines;
    if (complete && this.final) remember(this.code, lines);
    for (const listener of this.listeners) listener();
  }
}

/** The fallback: the incremental highlighter on the main thread, in steps of at most STEP_BUDGET_MS. */
class MainThreadSession extends BaseSession {
  private engine: IncrementalHighlight | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPass = Number.NEGATIVE_INFINITY;
  private closed = false;

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
    this.publish(engine.snapshot(), done);
    // While streaming, lines that finish later wait for the next update.
    if (!done) this.schedule(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}

/** The page's one highlighting worker, shared by every card. */
class HighlightWorker {
  private worker: Worker;
  private styles: Array<Record<string, string>> = [];
  private sessions = new Map<number, WorkerSession>();
  private nextId = 1;
  ready = false;

  constructor(
    worker: Worker,
    private readonly onFailure: () => void,
  ) {
    this.worker = worker;
    const fail = () => {
      worker.terminate();
      onFailure();
    };
    const timeout = setTimeout(() => !this.ready && fail(), WORKER_START_TIMEOUT_MS);
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      clearTimeout(timeout);
      fail();
    });
    worker.addEventListener("messageerror", fail);
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "ready") {
        this.ready = true;
        clearTimeout(timeout);
      } else if (message.type === "failed") {
        clearTimeout(timeout);
        fail();
      } else {
        for (let i = 0; i < message.styles.length; i++) this.styles[message.stylesFrom + i] = message.styles[i]!;
        this.sessions.get(message.session)?.receive(message.seq, message.from, message.lines, message.tail, message.done);
      }
    });
  }

  decode(line: EncodedLine): CodeToken[] {
    const tokens: CodeToken[] = [];
    for (let i = 0; i < line.length; i += 2) tokens.push({ content: line[i] as string, style: this.styles[line[i + 1] as number]! });
    return tokens;
  }

  open(session: WorkerSession): number {
    const id = this.nextId++;
    this.sessions.set(id, session);
    return id;
  }

  send(message: ToWorker): void {
    if (message.type === "close") this.sessions.delete(message.session);
    this.worker.postMessage(message);
  }

  /** The sessions that were open when the worker failed, to carry on on the main thread. */
  orphans(): WorkerSession[] {
    return [...this.sessions.values()];
  }
}

class WorkerSession extends BaseSession {
  private id: number;
  private seq = 0;
  private finished: CodeToken[][] = [];
  /** Set when the worker failed: the session carries on on the main thread. */
  private fallback: MainThreadSession | null = null;

  constructor(private worker: HighlightWorker) {
    super();
    this.id = worker.open(this);
  }

  update(code: string, final: boolean): void {
    if (this.fallback) return this.fallback.update(code, final);
    if (code === this.code && final === this.final) return;
    this.code = code;
    this.final = final;
    this.worker.send({ type: "highlight", session: this.id, seq: ++this.seq, code, final });
  }

  receive(seq: number, from: number, lines: EncodedLine[], tail: EncodedLine | null, done: boolean): void {
    if (from < this.finished.length) this.finished = this.finished.slice(0, from);
    for (const line of lines) this.finished.push(this.worker.decode(line));
    const complete = done && seq === this.seq;
    this.publish(tail ? [...this.finished, this.worker.decode(tail)] : this.finished.slice(), complete);
  }

  /** Moves to the main thread, keeping the lines it has until new ones come. */
  carryOnWithout(): void {
    this.fallback = new MainThreadSession();
    this.fallback.subscribe(() => this.publish(this.fallback!.snapshot() as CodeToken[][], false));
    this.fallback.update(this.code, this.final);
  }

  close(): void {
    if (this.fallback) this.fallback.close();
    else this.worker.send({ type: "close", session: this.id });
  }
}

type Backend = { kind: "worker"; worker: HighlightWorker } | { kind: "main-thread" };
let backend: Backend | null = null;

/** Bundlers (Vite, webpack, Next.js) see this pattern and ship the worker as a chunk of its own, with shiki. */
const spawnWorker = (): Worker =>
  new Worker(new URL("./highlight-worker.js", import.meta.url), { type: "module", name: "execute-code-ui highlighter" });
let spawn: (() => Worker) | null = typeof Worker === "undefined" ? null : spawnWorker;

function startWorker(): HighlightWorker | null {
  if (!spawn) return null;
  try {
    const worker = spawn();
    const highlightWorker: HighlightWorker = new HighlightWorker(worker, () => {
      backend = { kind: "main-thread" };
      tokenizerResource.preload();
      for (const session of highlightWorker.orphans()) session.carryOnWithout();
    });
    return highlightWorker;
  } catch {
    return null;
  }
}

/**
 * Starts the highlighter: the worker, or the main thread's tokenizer chunk
 * when there is no worker. Call it from an effect, never during a render.
 */
export function preloadHighlighter(): void {
  if (backend) return;
  const worker = startWorker();
  backend = worker ? { kind: "worker", worker } : { kind: "main-thread" };
  if (!worker) tokenizerResource.preload();
}

/** A session for one card; from an effect, never during a render. */
export function openSession(): HighlightSession {
  preloadHighlighter();
  const started = backend as Backend;
  return started.kind === "worker" ? new WorkerSession(started.worker) : new MainThreadSession();
}

/**
 * For tests: forget the highlighter, so that the next card starts it again,
 * with workers from `spawnWith` (null: the main thread; omitted: real workers).
 */
export function resetHighlighterForTests(spawnWith?: (() => Worker) | null): void {
  backend = null;
  spawn = spawnWith === undefined ? (typeof Worker === "undefined" ? null : spawnWorker) : spawnWith;
  cache.clear();
}
