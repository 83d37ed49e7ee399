// The highlighting worker's work, apart from the worker itself so that tests
// can run it in-process: each card is a session with its own incremental
// highlighter, and the page gets new lines as they are done, a slice of work
// at a time, so that a newer request is picked up in between.
import { IncrementalHighlight } from "./incremental.js";
import type { EncodedLine, FromWorker, ToWorker } from "./protocol.js";
import type { CodeToken, Tokenizer } from "./types.js";

/** A few lines with what most programs have, tokenized once while no card waits. */
const WARM_UP_PROGRAM = [
  "import math",
  "from collections import Counter  # counts",
  "",
  "@dataclass",
  "class Point:",
  '    """A point."""',
  "    def norm(self, p: float = 2.0) -> float:",
  '        return (abs(self.x) ** p + 1e-3) / len([1, 2]) if self.x else {"k": None}[0]',
  "",
  "for i in range(3):",
  "    print(f\"{i!r:>4} {math.pi:.2f}\", 'x', i % 2 == 0, sep='\\t')",
].join("\n");

/** Work in one go before answering, so that a long program shows its first lines soon and the rest in a few messages. */
const SLICE_MS = 8;

interface Session {
  engine: IncrementalHighlight;
  /** Finished lines the page has, and the engine's `restarts` when they were sent. */
  sent: number;
  restarts: number;
  /** The request being worked on. */
  request: { seq: number } | null;
  /** The tail the page has. */
  sentTail: CodeToken[] | null;
}

/** Returns the handler of the page's messages; answers through `post` once `tokenizer` has loaded. */
export function createWorkerHost(
  post: (message: FromWorker) => void,
  loading: Promise<Tokenizer>,
): (message: ToWorker) => void {
  let tokenizer: Tokenizer | null = null;
  const sessions = new Map<number, Session>();
  const styleIds = new Map<string, number>();
  const styles: Array<Record<string, string>> = [];
  let stylesSent = 0;
  let busyMs = 0;
  /** Whether any card has asked for highlighting yet, and whether the app asked for a warm-up. */
  let asked = false;
  let warmUp = false;
  // Sessions are made before the tokenizer is there; they tokenize only once it is.
  const lateTokenizer: Tokenizer = {
    tokenize: (code, state) => {
      if (!tokenizer) throw new Error("the tokenizer has not loaded");
      return tokenizer.tokenize(code, state);
    },
  };

  const encode = (line: CodeToken[]): EncodedLine => {
    const encoded: EncodedLine = [];
    for (const token of line) {
      const key = JSON.stringify(token.style);
      let id = styleIds.get(key);
      if (id === undefined) {
        id = styles.push(token.style) - 1;
        styleIds.set(key, id);
      }
      encoded.push(token.content, id);
    }
    return encoded;
  };

  const report = (id: number, session: Session, done: boolean) => {
    const { engine, request } = session;
    if (!request) return;
    const from = engine.restarts === session.restarts ? session.sent : 0;
    const { lines, tail } = engine.linesFrom(from);
    if (lines.length === 0 && tail === session.sentTail && !done) return;
    const encodedLines = lines.map(encode);
    const encodedTail = tail ? encode(tail) : null;
    post({
      type: "lines",
      session: id,
      seq: request.seq,
      from,
      lines: encodedLines,
      tail: encodedTail,
      styles: styles.slice(stylesSent),
      stylesFrom: stylesSent,
      done,
      busyMs,
    });
    stylesSent = styles.length;
    session.sent = engine.finishedLines;
    session.restarts = engine.restarts;
    session.sentTail = tail;
  };

  let scheduled = false;
  const schedule = () => {
    if (scheduled || !tokenizer) return;
    scheduled = true;
    setTimeout(run, 0);
  };

  /** A slice of work on every session with a request. */
  const run = () => {
    scheduled = false;
    for (const [id, session] of sessions) {
      const request = session.request;
      if (!request) continue;
      const start = performance.now();
      // The unfinished last line too, even while the code streams: here it
      // costs the page nothing, it shows the line being written in colour,
      // and when the last delta only closes the arguments, the final colours
      // are already there.
      let done = session.engine.step(true);
      while (!done && performance.now() - start < SLICE_MS) done = session.engine.step(true);
      busyMs += performance.now() - start;
      report(id, session, done);
      if (done) session.request = null;
    }
    if ([...sessions.values()].some((s) => s.request)) schedule();
  };

  // Started ahead of any card (preloadHighlighter at app start): the first
  // lines compile most of the grammar's regular expressions, so do that while
  // no card waits, a line per task, so that a card's request that comes
  // meanwhile waits for one line at most and stops the rest. A worker a card
  // started never warms up: that card's own lines are the first.
  let warming = false;
  const warmUpSoon = () => {
    if (warming) return;
    warming = true;
    const lines = WARM_UP_PROGRAM.split("\n");
    let state: unknown;
    const next = (line: number) =>
      setTimeout(() => {
        if (asked || !tokenizer || line >= lines.length) return;
        state = tokenizer.tokenize(lines[line]!, state).state;
        next(line + 1);
      }, 0);
    next(0);
  };

  loading.then(
    (loaded) => {
      tokenizer = loaded;
      post({ type: "ready" });
      // Requests that came while loading start now, not a timer later.
      run();
      if (warmUp) warmUpSoon();
    },
    (error: unknown) => post({ type: "failed", message: String(error) }),
  );

  return (message) => {
    if (message.type === "warm-up") {
      warmUp = true;
      if (tokenizer) warmUpSoon();
      return;
    }
    if (message.type === "close") {
      sessions.delete(message.session);
      return;
    }
    asked = true;
    let session = sessions.get(message.session);
    if (!session) {
      session = {
        engine: new IncrementalHighlight(lateTokenizer),
        sent: 0,
        restarts: 0,
        request: null,
        sentTail: null,
      };
      sessions.set(message.session, session);
    }
    session.engine.setCode(message.code);
    session.request = { seq: message.seq };
    schedule();
  };
}
