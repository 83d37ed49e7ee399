// One policy for long output, wherever it is cut (the sandbox, the server,
// the browser's worker): keep its start and its end, as a terminal keeps
// the latest lines, and count what was left out between them.

import type { ExecuteCodeTruncation } from "./result.js";

/** What was kept of one stream. */
export interface KeptText {
  /** The start, then the end: `text.slice(0, at)` and `text.slice(at)`. */
  text: string;
  /** Characters left out between the two. */
  cut: number;
  /** Where the cut is in `text`; equal to `text.length` when nothing was cut. */
  at: number;
  /** Line breaks in what was left out. */
  cutLines: number;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** The first `n` characters of `text`, one fewer where the last would split a surrogate pair. */
export const firstChars = (text: string, n: number): string => text.slice(0, headLength(text, n));

/** The last `n` characters of `text`, one fewer where the first would split a surrogate pair. */
export const lastChars = (text: string, n: number): string => text.slice(tailStart(text, n));

/** The length of the first `n` characters of `text`, one less where that would split a surrogate pair. */
function headLength(text: string, n: number): number {
  if (n <= 0) return 0;
  return n < text.length && isHighSurrogate(text.charCodeAt(n - 1)) ? n - 1 : n;
}

/** Where the last `n` characters of `text` start, one later where that would split a surrogate pair. */
function tailStart(text: string, n: number): number {
  const start = Math.max(0, text.length - n);
  return start > 0 && start < text.length && isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : start;
}

export function countLineBreaks(text: string, from = 0, to = text.length): number {
  let lines = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** Output written but never passed on (a flood's middle): `chars` characters with `lines` line breaks. */
export interface SkippedOutput {
  chars: number;
  lines: number;
}

/** A `skipped` as a sandbox or an interpreter sends it, if it is one. */
export function skippedOutput(raw: unknown): SkippedOutput | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { chars, lines } = raw as Record<string, unknown>;
  const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (!count(chars) || !count(lines) || (lines as number) > (chars as number) || chars === 0) return undefined;
  return { chars: chars as number, lines: lines as number };
}

/** What an earlier stage (the sandbox) cut from a stream before this one saw it. */
export interface EarlierCut {
  cut: number;
  /** Where in the text it passed on; absent: at the end. */
  at?: number;
  cutLines: number;
}

/**
 * `keepHeadAndTail` after an earlier stage's cut: the two cuts are told as
 * one. With the default limits the earlier cut lies inside this one (the
 * sandbox keeps far more than the server), so the kept text has one seam.
 */
export function keepHeadAndTailAfter(text: string, limit: number, earlier: EarlierCut): KeptText {
  const kept = keepHeadAndTail(text, limit);
  if (earlier.cut === 0) return kept;
  if (kept.cut === 0) {
    return {
      ...kept,
      cut: earlier.cut,
      at: Math.min(earlier.at ?? text.length, text.length),
      cutLines: earlier.cutLines,
    };
  }
  return { ...kept, cut: kept.cut + earlier.cut, cutLines: kept.cutLines + earlier.cutLines };
}

/** How much of a stream's `limit` goes to its start; the rest keeps its end. */
const headShare = (limit: number) => Math.ceil(limit / 2);

/** Keeps the first and the last characters of `text`, `limit` in all; says what was cut and where. */
export function keepHeadAndTail(text: string, limit: number): KeptText {
  if (text.length <= limit) return { text, cut: 0, at: text.length, cutLines: 0 };
  const head = headLength(text, headShare(limit));
  const tail = tailStart(text, Math.max(0, limit - headShare(limit)));
  return {
    text: text.slice(0, head) + text.slice(tail),
    cut: tail - head,
    at: head,
    cutLines: countLineBreaks(text, head, tail),
  };
}

/**
 * One stream's text as its pieces arrive, kept within `limit` characters
 * by the same policy: the first half of the limit fills once, the second
 * half always holds the latest characters, and what falls out between them
 * is counted. Each piece costs its own length, not the limit's.
 */
export class CappedText {
  private head = "";
  /** The latest pieces, oldest first; together at most `tailLimit` characters once trimmed. */
  private pieces: string[] = [];
  private tailLength = 0;
  cut = 0;
  cutLines = 0;
  /** Set once characters were skipped: the start ends where they did. */
  private headClosed = false;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(readonly limit: number) {
    this.headLimit = headShare(limit);
    this.tailLimit = Math.max(0, limit - this.headLimit);
  }

  get text(): string {
    return this.head + this.tail();
  }

  /** Where the cut is in `text` (its length while nothing was cut). */
  get at(): number {
    return this.cut > 0 ? this.head.length : this.head.length + this.tailLength;
  }

  add(piece: string): void {
    let rest = piece;
    if (!this.headClosed && this.tailLength === 0 && this.head.length < this.headLimit) {
      const room = headLength(rest, this.headLimit - this.head.length);
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest) return;
    this.pieces.push(rest);
    this.tailLength += rest.length;
    // Whole pieces fall out first; the oldest one left is trimmed to the limit.
    while (this.pieces.length > 1 && this.tailLength - this.pieces[0]!.length >= this.tailLimit)
      this.drop(this.pieces.shift()!);
    if (this.tailLength > this.tailLimit) {
      const first = this.pieces[0]!;
      const start = tailStart(first, first.length - (this.tailLength - this.tailLimit));
      this.drop(first.slice(0, start));
      this.pieces[0] = first.slice(start);
    }
  }

  /**
   * Counts characters that came after everything added so far but were
   * never passed on (a sandbox sends
   * only the latest of a flood). The kept end must be one stretch of the
   * stream, so what was kept of the end before them is cut too.
   */
  skip({ chars, lines }: SkippedOutput): void {
    if (chars <= 0) return;
    this.headClosed = true;
    for (const piece of this.pieces.splice(0)) this.drop(piece);
    this.cut += chars;
    this.cutLines += lines;
  }

  /**
   * The stream's true end, once it is known: `end` its last characters and
   * `written` all it held. What was kept of the end before (perhaps from
   * pieces a flood skipped between) gives way to it, and the cut is what lies
   * between the start and `end`. Ignored where the two do not add up.
   */
  endWith(end: string, written: SkippedOutput): void {
    const cut = written.chars - this.head.length - end.length;
    const cutLines = written.lines - countLineBreaks(this.head) - countLineBreaks(end);
    if (cut < 0 || cutLines < 0 || end.length > this.tailLimit) return;
    this.headClosed = true;
    this.pieces = end ? [end] : [];
    this.tailLength = end.length;
    this.cut = cut;
    this.cutLines = cutLines;
  }

  /** What was kept, as `keepHeadAndTail` says it. */
  kept(): KeptText {
    return { text: this.text, cut: this.cut, at: this.at, cutLines: this.cutLines };
  }

  private drop(text: string): void {
    this.tailLength -= text.length;
    this.cut += text.length;
    this.cutLines += countLineBreaks(text);
  }

  private tail(): string {
    if (this.pieces.length > 1) this.pieces = [this.pieces.join("")];
    return this.pieces[0] ?? "";
  }
}

/** A result's `truncated`, from what was cut of each stream (and where, when known). */
export function truncationOf(stdout: EarlierCut, stderr: EarlierCut): ExecuteCodeTruncation {
  const both = { stdout, stderr };
  const cutStreams = (["stdout", "stderr"] as const).filter((stream) => both[stream].cut > 0);
  if (cutStreams.length === 0) return { stdout: 0, stderr: 0 };
  const at = Object.fromEntries(
    cutStreams.flatMap((stream) => (both[stream].at === undefined ? [] : [[stream, both[stream].at]])),
  );
  return {
    stdout: stdout.cut,
    stderr: stderr.cut,
    ...(Object.keys(at).length ? { at } : {}),
    lines: Object.fromEntries(cutStreams.map((stream) => [stream, both[stream].cutLines])),
  };
}

/** The kept text with its cut said where it is, for a reader of plain text (the model). */
export function markCut(text: string, cut: number, at: number = text.length, cutLines?: number): string {
  if (cut <= 0) return text;
  const lines = cutLines ? ` (${cutLines} ${cutLines === 1 ? "line break" : "line breaks"})` : "";
  const where = at >= text.length ? "from the end" : "here, between the start and the end";
  const before = text.slice(0, at);
  const gap = before && !before.endsWith("\n") ? "\n" : "";
  return `${before}${gap}[${cut} characters${lines} were left out ${where}]\n${text.slice(at)}`;
}

/** Where a result says the cut in `stream` is: its `at`, or the end of the text for a result cut at its end. */
export function cutAt(truncated: ExecuteCodeTruncation, stream: "stdout" | "stderr", text: string): number {
  return truncated[stream] > 0 ? Math.min(truncated.at?.[stream] ?? text.length, text.length) : text.length;
}
