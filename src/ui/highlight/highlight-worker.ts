// The highlighting worker: shiki and the Python grammar run here, off the
// page's main thread, so that neither loading them, nor compiling the
// grammar's regular expressions (tens of milliseconds on the first lines),
// nor tokenizing a long program can hold the page. Each card is a session
// with its own incremental highlighter; the page gets new lines as they are done.
import { IncrementalHighlight } from "./incremental.js";
import type { EncodedLine, FromWorker, ToWorker } from "./protocol.js";
import { createPythonTokenizer } from "./python-tokenizer.js";
import type { CodeToken, Tokenizer } from "./types.js";

/** Work in one go before answering, so that a long program shows its first lines soon and the rest in a few messages. */
const SLICE_MS = 8;

interface Session {
  engine: IncrementalHighlight;
  /** Finished lines the page has; `restarts` of the engine when they were sent. */
  sent: number;
  restarts: number;
  /** The request being worked on. */
  request: { seq: number; code: string; final: boolean } | null;
  /** Whether the tail the page has is the engine's current one. */
  sentTail: CodeToken[] | null;
}

const post = (message: FromWorker) => (self as unknown as Worker).postMessage(message);

let tokenizer: Tokenizer | null = null;
const sessions = new Map<number, Session>();

const styleIds = new Map<string, number>();
const styles: Array<Record<string, string>> = [];
let stylesSent = 0;

function encode(line: CodeToken[]): EncodedLine {
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
}

function report(id: number, session: Session, done: boolean) {
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
  });
  stylesSent = styles.length;
  session.sent = engine.finishedLines;
  session.restarts = engine.restarts;
  session.sentTail = tail;
}

let scheduled = false;
function schedule() {
  if (scheduled || !tokenizer) return;
  scheduled = true;
  setTimeout(run, 0);
}

/** Works on every session with a request, a slice at a time, so that newer requests are picked up in between. */
function run() {
  scheduled = false;
  for (const [id, session] of sessions) {
    const request = session.request;
    if (!request) continue;
    const start = performance.now();
    let done = session.engine.step(request.final);
    while (!done && performance.now() - start < SLICE_MS) done = session.engine.step(request.final);
    report(id, session, done);
    if (done) session.request = null;
  }
  if ([...sessions.values()].some((s) => s.request)) schedule();
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "close") {
    sessions.delete(message.session);
    return;
  }
  let session = sessions.get(message.session);
  if (!session) {
    session = { engine: new IncrementalHighlight(placeholder), sent: 0, restarts: 0, request: null, sentTail: null };
    sessions.set(message.session, session);
  }
  session.engine.setCode(message.code);
  session.request = { seq: message.seq, code: message.code, final: message.final };
  schedule();
};

// Sessions are made before the tokenizer is there; they tokenize only once it is.
const placeholder: Tokenizer = {
  tokenize: (code, state) => {
    if (!tokenizer) throw new Error("the tokenizer has not loaded");
    return tokenizer.tokenize(code, state);
  },
};

createPythonTokenizer().then(
  (loaded) => {
    tokenizer = loaded;
    post({ type: "ready" });
    schedule();
  },
  (error: unknown) => post({ type: "failed", message: String(error) }),
);
