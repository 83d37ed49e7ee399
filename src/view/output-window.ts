/** How much of a long stream is shown before "Show all". */
export interface OutputWindowLimits {
  maxLines: number;
  headLines: number;
  tailLines: number;
  maxChars: number;
}

/** Enough context on either side of the cut, while a megabyte of output still paints in one short task. */
export const DEFAULT_OUTPUT_LIMITS: OutputWindowLimits = {
  maxLines: 300,
  headLines: 200,
  tailLines: 60,
  maxChars: 32_000,
};

export type OutputWindow =
  | { kind: "whole"; text: string }
  | { kind: "cut"; head: string; tail: string; hiddenLines: number; hiddenChars: number };

function countLines(text: string, stopAfter = Infinity): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && lines <= stopAfter; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** Index of the n-th line break from the start (n ≥ 1). */
function nthBreak(text: string, n: number): number {
  let at = -1;
  for (let k = 0; k < n; k++) at = text.indexOf("\n", at + 1);
  return at;
}

/** Index of the n-th line break from the end (n ≥ 1). */
function nthBreakFromEnd(text: string, n: number): number {
  let at = text.length;
  for (let k = 0; k < n; k++) at = text.lastIndexOf("\n", at - 1);
  return at;
}

/**
 * Keeps the head and the tail of very long output so the page stays fast;
 * the middle is hidden behind "Show all" (and stays in the copied text).
 * Scans for line breaks rather than splitting, so a megabyte costs no
 * allocation per line.
 */
export function windowOutput(text: string, limits: OutputWindowLimits = DEFAULT_OUTPUT_LIMITS): OutputWindow {
  if (text.length <= limits.maxChars && countLines(text, limits.maxLines) <= limits.maxLines) {
    return { kind: "whole", text };
  }
  const charBudget = Math.floor(limits.maxChars / 2);
  const total = countLines(text);
  if (total > limits.headLines + limits.tailLines) {
    const head = text.slice(0, nthBreak(text, limits.headLines)).slice(0, charBudget);
    const tail = text.slice(nthBreakFromEnd(text, limits.tailLines) + 1).slice(-charBudget);
    return {
      kind: "cut",
      head,
      tail,
      hiddenLines: total - limits.headLines - limits.tailLines,
      hiddenChars: text.length - head.length - tail.length,
    };
  }
  // Few but very long lines: cut by characters.
  const head = text.slice(0, charBudget);
  const tail = text.slice(-charBudget);
  return {
    kind: "cut",
    head,
    tail,
    hiddenLines: Math.max(0, total - countLines(head) - countLines(tail)),
    hiddenChars: text.length - head.length - tail.length,
  };
}

/** What shows of a stream the server cut in its middle: its kept start and kept end, each perhaps windowed further. */
export interface SeamWindow {
  head: string;
  tail: string;
  /** Kept lines and characters hidden beside the seam until "Show all" (0 when all that was kept shows). */
  hiddenLines: number;
  hiddenChars: number;
}

/**
 * The window of a stream whose kept text has a seam at `at` (the server kept
 * its start and its end): all of it, however many lines, when its
 * characters fit the window (one mark at the seam, and no "Show all" that
 * shows only part); else the start's first lines and the end's last lines,
 * so the seam sits between them and the last line printed always shows.
 */
export function windowAroundSeam(
  text: string,
  at: number,
  limits: OutputWindowLimits = DEFAULT_OUTPUT_LIMITS,
): SeamWindow {
  const before = text.slice(0, at);
  const after = text.slice(at);
  if (text.length <= limits.maxChars) return { head: before, tail: after, hiddenLines: 0, hiddenChars: 0 };
  const charBudget = Math.floor(limits.maxChars / 2);
  const headEnd =
    countLines(before, limits.headLines) > limits.headLines ? nthBreak(before, limits.headLines) : before.length;
  const head = before.slice(0, Math.min(headEnd, charBudget));
  const tailStart =
    countLines(after, limits.tailLines) > limits.tailLines ? nthBreakFromEnd(after, limits.tailLines) + 1 : 0;
  const tail = after.slice(Math.max(tailStart, after.length - charBudget));
  const hiddenChars = text.length - head.length - tail.length;
  return {
    head,
    tail,
    hiddenLines: hiddenChars ? countLines(text.slice(head.length, text.length - tail.length)) - 1 : 0,
    hiddenChars,
  };
}
