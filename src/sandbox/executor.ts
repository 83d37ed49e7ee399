import type { ExecuteCodeTruncation } from "../contract/result.js";
import {
  CappedText,
  countLineBreaks,
  firstChars,
  lastChars,
  truncationOf,
  type SkippedOutput,
} from "../contract/truncate.js";

export type OutputStream = "stdout" | "stderr";

/** One program to run. */
export interface RunRequest {
  code: string;
  /** Hard limit: the run is ended after this long. */
  timeoutMs: number;
  /** Aborted when the caller went away; the run is ended at once. */
  signal: AbortSignal;
  /** Called once when the program starts, after any wait for an interpreter: its time limit counts from here. */
  onStart?: () => void;
  /**
   * Called with each piece of output as the program writes it (for live
   * output). Past a stream's live budget only its latest characters come,
   * now and then, with what was `skipped` before them.
   */
  onOutput?: (stream: OutputStream, text: string, skipped?: SkippedOutput) => void;
  /** Files put in the working directory before the program starts: a student's, or earlier runs' of the chat. */
  files?: RunFileInput[];
}

/** A file a run is given, under its path in the working directory. */
export interface RunFileInput {
  name: string;
  bytes: Uint8Array;
}

/** What running a program gave, as the sandbox reports it. */
export interface RunOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  wallTimeMs: number;
  timedOut: boolean;
  /** What was cut from each stream past the executor's output cap (its start and end kept), and where. */
  truncated?: ExecuteCodeTruncation;
  /** Files the run left in its working directory, figures included (engines that keep them). */
  files?: RunFileOutput[];
  /** Files left out past the caps on count and size. */
  filesCut?: number;
  /** Which of the files it was given the program opened, where the engine can tell. */
  filesRead?: string[];
  /** Which of the files it was given the program removed (or replaced with anything but a file). */
  filesRemoved?: string[];
  /** Why the program failed, as its Python saw it (contract/failure.ts): read by the service, never trusted. */
  failure?: unknown;
}

/** The facts of a run the sandbox stopped for memory (contract/failure.ts), as for a program's own MemoryError. */
export function memoryFailure(message: string) {
  return { type: "MemoryError", message, explanation: { kind: "memory" } };
}

/** One file a run left, with its bytes. */
export interface RunFileOutput {
  /** Its path under the working directory. */
  name: string;
  mediaType: string;
  /** For a figure: its title and axis labels. */
  alt?: string;
  bytes: Uint8Array;
}

/** A failure of the sandbox service itself, injected by the scripted executor for tests. */
export type SandboxFault =
  | { kind: "http-error"; status: number; body?: string }
  | { kind: "malformed-json" }
  | { kind: "reset" }
  | { kind: "rate-limit"; retryAfterSeconds: number };

export interface Executor {
  run(request: RunRequest): Promise<RunOutcome | { fault: SandboxFault }>;
  /** What the executor can say about itself for a health check (isolation, pool). */
  health?(): Record<string, unknown>;
  close(): Promise<void>;
}

/** Calls a listener the caller gave: a failing listener must not take the run with it. */
export function notify<A extends unknown[]>(listener: ((...args: A) => void) | undefined, ...args: A): void {
  try {
    listener?.(...args);
  } catch {
    // The run goes on.
  }
}

/** Past its live budget, a stream's latest characters go out at most this often... */
const LATEST_EVERY_MS = 250;
/** ...and at most this many of them. */
const LATEST_CHARS = 8192;

/**
 * A run's output as the parent keeps it: each stream's start and its latest
 * characters, `limit` in all (the kit's one policy, contract/truncate.ts),
 * the middle counted. Pieces go on to `onOutput` until a stream has sent
 * `limit` characters live; then its latest characters go now and then, as
 * a terminal shows a flood, and the reader counts what it never saw.
 * `skipped` is what an interpreter already left out before `text`.
 */
export function collectOutput(limit: number, onOutput?: RunRequest["onOutput"]) {
  const kept = { stdout: new CappedText(limit), stderr: new CappedText(limit) };
  const sent = { stdout: 0, stderr: 0 };
  const latest = { stdout: new LatestOutput(), stderr: new LatestOutput() };
  const timers: Partial<Record<OutputStream, ReturnType<typeof setTimeout>>> = {};
  let closed = false;
  const sendLatest = (stream: OutputStream) => {
    delete timers[stream];
    const piece = latest[stream].take();
    if (piece && !closed) notify(onOutput, stream, piece.text, piece.skipped);
  };
  return {
    add(stream: OutputStream, text: string, skipped?: SkippedOutput) {
      if (!text && !skipped) return;
      if (skipped) kept[stream].skip(skipped);
      if (text) kept[stream].add(text);
      const room = limit - sent[stream];
      if (room > 0 && !skipped) {
        const piece = text.length <= room ? text : firstChars(text, room);
        // A piece cut short ends the budget, even a character early (an emoji not split): the rest goes in order.
        sent[stream] = piece.length === text.length ? sent[stream] + piece.length : limit;
        if (piece) notify(onOutput, stream, piece);
        text = text.slice(piece.length);
        if (!text) return;
      } else sent[stream] = limit;
      latest[stream].add(text, skipped);
      if (!timers[stream] && !closed) {
        const timer = setTimeout(() => sendLatest(stream), LATEST_EVERY_MS);
        timer.unref?.();
        timers[stream] = timer;
      }
    },
    /** An interpreter's word on a stream's end past its cap (its last characters, and all it wrote): the result keeps it. */
    end(stream: OutputStream, text: string, written: SkippedOutput) {
      kept[stream].endWith(text, written);
    },
    /** Sends no more: the result carries the rest. */
    close() {
      closed = true;
      for (const timer of Object.values(timers)) clearTimeout(timer);
    },
    /** The kept text of each stream. */
    output: () => ({ stdout: kept.stdout.text, stderr: kept.stderr.text }),
    /** What was cut, and where, as a result says it. */
    truncated: (): ExecuteCodeTruncation => truncationOf(kept.stdout.kept(), kept.stderr.kept()),
  };
}

/** A stream's latest characters not yet sent, and what fell out before them. */
export class LatestOutput {
  private text = "";
  private skipped: SkippedOutput = { chars: 0, lines: 0 };

  constructor(private readonly chars = LATEST_CHARS) {}

  add(text: string, skipped?: SkippedOutput): void {
    if (skipped) {
      this.leaveOut(this.text.length);
      this.skipped.chars += skipped.chars;
      this.skipped.lines += skipped.lines;
    }
    this.text += text;
    // Trimmed at twice the size, so each character is copied a bounded number of times.
    if (this.text.length > this.chars * 2) this.leaveOut(this.text.length - lastChars(this.text, this.chars).length);
  }

  /** The latest characters, with what was left out before them since the last take; null when nothing came. */
  take(): { text: string; skipped?: SkippedOutput } | null {
    if (!this.text && !this.skipped.chars) return null;
    const taken = { text: this.text, ...(this.skipped.chars ? { skipped: this.skipped } : {}) };
    this.text = "";
    this.skipped = { chars: 0, lines: 0 };
    return taken;
  }

  private leaveOut(chars: number): void {
    this.skipped.chars += chars;
    this.skipped.lines += countLineBreaks(this.text, 0, chars);
    this.text = this.text.slice(chars);
  }
}

/** The files a run left but for those it was given and left as they were: those are kept already. */
export function changedFiles(files: RunFileOutput[] | undefined, given: RunFileInput[] | undefined): RunFileOutput[] {
  if (!files || !given?.length) return files ?? [];
  const before = new Map(given.map((file) => [file.name, file.bytes]));
  return files.filter((file) => {
    const was = before.get(file.name);
    // A figure the run drew (described, so with its alt text) is its own, even one drawn alike before.
    return file.alt !== undefined || !was || !Buffer.from(was).equals(file.bytes);
  });
}

/**
 * The files but for a figure the run drew (`show()`, so with alt text) that
 * a file the program saved holds byte for byte (`savefig("squares.png")`
 * before it): one image, under the name the student gave it, with the
 * figure's alt text. The student and the model see it once.
 */
export function withoutDrawnCopies(files: RunFileOutput[]): RunFileOutput[] {
  const saved = files.filter((file) => file.alt === undefined);
  const altOfSaved = new Map<RunFileOutput, string>();
  const copies = new Set<RunFileOutput>();
  for (const drawn of files) {
    if (drawn.alt === undefined) continue;
    // One drawn figure a saved file: a figure shown twice was shown twice.
    const copy = saved.find(
      (file) =>
        !altOfSaved.has(file) &&
        file.mediaType === drawn.mediaType &&
        file.bytes.length === drawn.bytes.length &&
        Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.length).equals(drawn.bytes),
    );
    if (!copy) continue;
    copies.add(drawn);
    altOfSaved.set(copy, drawn.alt);
  }
  if (!copies.size) return files;
  return files
    .filter((file) => !copies.has(file))
    .map((file) => (altOfSaved.has(file) ? { ...file, alt: altOfSaved.get(file)! } : file));
}
