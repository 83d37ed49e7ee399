// Where a card's program gets highlighted: in a Web Worker when the page can
// start one (shiki, the grammar's regular-expression compilation and the
// tokenizing all stay off the main thread), otherwise on the main thread in
// small steps with a yield between them (main-thread.ts, loaded only then).
// Nothing here starts before a card's first render has committed: the hook
// calls `startHighlighter` and `openSession` from effects only, so a server
// render never loads or runs the highlighter.
import { lazyResource } from "../lazy-resource.js";
import type { MainThreadHighlighter } from "./main-thread.js";
import type { EncodedLine, FromWorker, ToWorker } from "./protocol.js";
import type { CodeToken } from "./types.js";

/** A worker that has not said it is ready by then is given up for the main thread. */
const WORKER_START_TIMEOUT_MS = 10_000;
/**
 * While code streams, the worker gets the latest code at most this often:
 * on two cores it competes with the page, and fewer, larger passes cost it
 * less. A finished program goes at once.
 */
const STREAMING_PASS_MS = 200;
const CACHE_SIZE = 64;

/** Time spent highlighting, in the worker and on the main thread, for the benchmark. */
export const highlightStats = { workerMs: 0, mainThreadMs: 0 };

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

const mainThread = lazyResource(() => import("./main-thread.js"));

/** The page's one highlighting worker, shared by every card. */
class HighlightWorker {
  private styles: Array<Record<string, string>> = [];
  private sessions = new Map<number, Session>();
  private nextId = 1;
  private ready = false;

  constructor(
    private readonly worker: Worker,
    /** Called once if the worker cannot start or breaks: its sessions then carry on on the main thread. */
    onFailure: (orphans: Session[]) => void,
  ) {
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      clearTimeout(timeout);
      worker.terminate();
      onFailure([...this.sessions.values()]);
      this.sessions.clear();
    };
    const timeout = setTimeout(() => !this.ready && fail(), WORKER_START_TIMEOUT_MS);
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      fail();
    });
    worker.addEventListener("messageerror", fail);
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "ready") {
        this.ready = true;
        clearTimeout(timeout);
      } else if (message.type === "failed") {
        fail();
      } else {
        for (let i = 0; i < message.styles.length; i++) this.styles[message.stylesFrom + i] = message.styles[i]!;
        highlightStats.workerMs = message.busyMs;
        this.sessions
          .get(message.session)
          ?.receive(message.seq, message.from, message.lines, message.tail, message.done);
      }
    });
  }

  decode(line: EncodedLine): CodeToken[] {
    const tokens: CodeToken[] = [];
    for (let i = 0; i < line.length; i += 2)
      tokens.push({ content: line[i] as string, style: this.styles[line[i + 1] as number]! });
    return tokens;
  }

  open(session: Session): number {
    const id = this.nextId++;
    this.sessions.set(id, session);
    return id;
  }

  send(message: ToWorker): void {
    if (message.type === "close") this.sessions.delete(message.session);
    this.worker.postMessage(message);
  }
}

/** One card's highlighting: through the worker, or on the main thread once there is none. */
class Session implements HighlightSession {
  private lines: CodeToken[][] = [];
  private listeners = new Set<() => void>();
  private code = "";
  private final = false;
  private closed = false;
  private id = 0;
  private seq = 0;
  private finished: CodeToken[][] = [];
  /** The code last sent to the worker, when, and the `seq` of the last request it finished. */
  private sentCode: string | null = null;
  private sentAt = Number.NEGATIVE_INFINITY;
  private doneSeq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private fallback: MainThreadHighlighter | null = null;

  constructor(private worker: HighlightWorker | null) {
    if (worker) this.id = worker.open(this);
    else this.carryOnWithout();
  }

  snapshot = (): readonly CodeToken[][] => this.lines;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private publish(lines: CodeToken[][], complete: boolean): void {
    this.lines = lines;
    if (complete && this.final) remember(this.code, lines);
    for (const listener of this.listeners) listener();
  }

  update(code: string, final: boolean): void {
    if (code === this.code && final === this.final) return;
    this.code = code;
    this.final = final;
    if (!this.worker) {
      this.fallback?.update(code, final);
      return;
    }
    const wait = final ? 0 : this.sentAt + STREAMING_PASS_MS - performance.now();
    if (wait <= 0) this.send();
    else this.timer ??= setTimeout(() => this.send(), wait);
  }

  private send(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.worker || this.closed) return;
    // A program that only became final needs no new work, only remembering once it is in.
    if (this.code !== this.sentCode) {
      this.worker.send({ type: "highlight", session: this.id, seq: ++this.seq, code: this.code });
      this.sentCode = this.code;
      this.sentAt = performance.now();
    }
    if (this.final && this.doneSeq === this.seq) this.publish(this.lines, true);
  }

  receive(seq: number, from: number, lines: EncodedLine[], tail: EncodedLine | null, done: boolean): void {
    const worker = this.worker!;
    if (from < this.finished.length) this.finished = this.finished.slice(0, from);
    for (const line of lines) this.finished.push(worker.decode(line));
    if (done) this.doneSeq = seq;
    this.publish(tail ? [...this.finished, worker.decode(tail)] : this.finished.slice(), done && seq === this.seq);
  }

  /** Moves to the main thread, keeping the lines it has until new ones come. */
  carryOnWithout(): void {
    this.worker = null;
    if (this.timer !== null) clearTimeout(this.timer);
    void mainThread.load().then(({ MainThreadHighlighter }) => {
      if (this.closed) return;
      this.fallback = new MainThreadHighlighter(
        (lines, done) => this.publish(lines, done),
        (ms) => (highlightStats.mainThreadMs += ms),
      );
      if (this.code || this.final) this.fallback.update(this.code, this.final);
    });
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.worker) this.worker.send({ type: "close", session: this.id });
    this.fallback?.close();
  }
}

/** Bundlers (Vite, webpack, Next.js) see this pattern and ship the worker as a chunk of its own, with shiki. */
const spawnWorker = (): Worker =>
  new Worker(new URL("./highlight-worker.js", import.meta.url), {
    type: "module",
    name: "execute-code-ui highlighter",
  });
let spawn: (() => Worker) | null = typeof Worker === "undefined" ? null : spawnWorker;

/** The worker once started; null where none can start (or after it failed). */
let worker: HighlightWorker | null | undefined;
/** Whether the worker was asked to warm up (once). */
let warmUpAsked = false;

/**
 * Starts the highlighter ahead of the first card: the worker, which then
 * compiles the grammar's common patterns while no card waits, or the main
 * thread's highlighter chunk where there is none. Call it from an effect at
 * the app's start, never during a render. On a server it does nothing.
 */
export function preloadHighlighter(): void {
  startHighlighter();
  if (!worker || warmUpAsked) return;
  worker.send({ type: "warm-up" });
  warmUpAsked = true;
}

/** Starts the highlighter for a card that needs it now: no warm-up ahead of its own lines. */
export function startHighlighter(): void {
  if (worker !== undefined || typeof window === "undefined") return;
  worker = null;
  try {
    if (spawn) {
      worker = new HighlightWorker(spawn(), (orphans) => {
        worker = null;
        for (const session of orphans) session.carryOnWithout();
      });
    }
  } catch {
    worker = null;
  }
  if (!worker) mainThread.preload();
}

/** A session for one card; from an effect, never during a render. */
export function openSession(): HighlightSession {
  startHighlighter();
  return new Session(worker ?? null);
}

/**
 * For tests: forget the highlighter, so that the next card starts it again,
 * with workers from `spawnWith` (null: the main thread; omitted: real workers).
 */
export function resetHighlighterForTests(spawnWith?: (() => Worker) | null): void {
  worker = undefined;
  warmUpAsked = false;
  spawn = spawnWith === undefined ? (typeof Worker === "undefined" ? null : spawnWorker) : spawnWith;
  cache.clear();
}
