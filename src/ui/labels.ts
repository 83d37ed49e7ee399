import type { FailureLabels } from "./failure-labels.js";
import type { ExecuteCodePhase } from "../view/index.js";
import type { NumberSeparators } from "./format.js";

/** Every string the card shows. Pass a partial set to override single strings. */
export interface ExecuteCodeLabels {
  /** How numbers are written: "3.2 s" and "12,345" in English, "3,2 s" and "12.345" in German. */
  numbers: NumberSeparators;
  /** The tool's name: the card's title until its program has a first comment or line to be titled after. */
  title: string;
  /** Short status per phase, announced to screen readers when it changes. */
  phase: Record<ExecuteCodePhase, string>;
  /** The running phase's status while Python is still loading (in the browser): the program has not started, nor its clock. */
  starting: string;
  /** Name of the code pane, for screen readers. */
  code: string;
  /** Names of the output streams, in words a student knows: what the program printed, and its error stream. */
  stdout: string;
  stderr: string;
  /** Said once when a run printed nothing on either stream. */
  noOutput: string;
  copy: (what: string) => string;
  copied: string;
  /** The control under a long pane: how many more lines it shows (`count`, formatted as `lines`). */
  showMore: (lines: string, count: number) => string;
  showLess: string;
  /** The control that folds the card down to its header. */
  collapseCard: string;
  expandCard: string;
  hiddenLines: (count: string) => string;
  hiddenCharacters: (count: string) => string;
  showAll: string;
  /**
   * Under a stream the sandbox or the server cut: what of it was kept. `last` is
   * null for a stream cut at its end; `total` null where the cut part's lines
   * are not known.
   */
  truncated: (cut: {
    stream: string;
    characters: string;
    first: string;
    last: string | null;
    total: string | null;
  }) => string;
  /** Under a stream whose carriage returns overwrote text, as in a terminal. */
  overwritten: string;
  /** Shows each carriage return as ␍, and the text it overwrote (a toggle). */
  showOverwritten: string;
  /** At the seam of a stream cut in its middle: what was not kept there. */
  notKeptLines: (count: string) => string;
  notKeptCharacters: (count: string) => string;
  exitCode: (code: string) => string;
  exitUnknown: string;
  /** A failed run's status when no exception says why, in place of "Failed": the code it ended with. */
  exited: (code: number) => string;
  /** How a run killed by signal `name` ended, in words, the signal's name beside them. */
  signal: (name: string) => string;
  /**
   * A failed run's status, in place of "Failed", when it hit one of the
   * sandbox's limits: its memory (killed, or a `MemoryError` the program
   * raised), or a full sandbox that stopped it to make room for others. The
   * card's first words say why; a signal is not shown.
   */
  stoppedAtLimit: { memory: string; "sandbox-full": string };
  wallTime: (duration: string) => string;
  elapsed: (duration: string) => string;
  /** The clock of a running program beside its time limit. */
  elapsedOfLimit: (elapsed: string, limit: string) => string;
  /** The clock's accessible name while the program runs, with its limit when known. */
  spokenElapsed: (elapsed: string, limit: string | null) => string;
  /** The clock's accessible name once the run has ended. */
  spokenWallTime: (duration: string) => string;
  /** Before the exception a failed program ended with, in its header (read by screen readers; the exception shows alone). */
  raised: string;
  /** Name of the button that stops a running program; holds its visible `stopShort`. */
  stop: string;
  /** The stop button's visible word. */
  stopShort: string;
  /** A run stopped at the time limit (`limit`, when known); `printed` says whether its output is below. */
  timedOut: (limit: string | null, printed: boolean) => string;
  busy: (seconds: string | null) => string;
  busyNow: string;
  /** Asks again after a busy sandbox: the model's answer, and its program, once more. */
  retry: string;
  denied: string;
  deniedReason: (reason: string) => string;
  expired: string;
  cancelled: string;
  cancelledNoResult: string;
  /** A call left behind when the student sent a new message first. */
  skipped: string;
  error: string;
  unrecognised: string;
  approvalQuestion: string;
  awaitingApproval: string;
  awaitingClient: string;
  run: string;
  deny: string;
  addReason: string;
  denyReason: string;
  answerFailed: string;
  goToLine: (line: string) => string;
  /** Why a run failed, in words (the values, the plain explanation, a library's frames): English unless given. */
  failure?: Partial<FailureLabels>;
  /** Name of the group of figures a run drew. */
  figures: string;
  /** Name of the group of other files a run wrote. */
  files: string;
  /** A file's download link: its name and size. */
  download: (name: string, size: string) => string;
  /** A figure or file the app can no longer fetch (it expired, or it failed to load). */
  fileUnavailable: (name: string) => string;
  /** The button around a figure that opens it large: what the figure shows. */
  enlargeFigure: (alt: string) => string;
  /** Closes the enlarged figure. */
  closeFigure: string;
  /**
   * Beside an enlarged figure wider than the screen (on a phone, at its own
   * size), that it pans. Optional, for labels written before it: English by
   * default (kept with the dialog's code, out of the first load).
   */
  panFigure?: string;
  /** Where a figure will be while its program runs. */
  figurePending: string;
  /** Before the names of the given files the program opened ("Used:" scores.csv). */
  filesUsed: string;
  /** Files the run was to be given that the sandbox no longer kept. */
  filesGone: (names: string) => string;
  /** A run that started from the variables the chat's earlier runs left. */
  continued: string;
  /** A run that started in a fresh Python session, as the model asked (a sandbox that keeps a chat's session). */
  restarted: string;
  /** A table a run wrote, shown in part: its name. */
  tablePreview: (name: string) => string;
  /** Under a table shown in part: how many rows are shown. */
  tableRowsShown: (rows: string) => string;
}

export const englishLabels: ExecuteCodeLabels = {
  numbers: { decimal: ".", group: "," },
  title: "Python",
  phase: {
    writing: "Writing code…",
    "awaiting-approval": "Waiting for approval",
    running: "Running…",
    succeeded: "Finished",
    failed: "Failed",
    "timed-out": "Timed out",
    busy: "Sandbox busy",
    denied: "Not run",
    cancelled: "Cancelled",
    skipped: "Skipped",
    error: "Could not run",
    unrecognised: "Result not understood",
    "awaiting-client": "Waiting for the browser",
  },
  starting: "Starting Python…",
  code: "Code",
  stdout: "Output",
  stderr: "Error output",
  noOutput: "The program printed nothing.",
  copy: (what) => `Copy ${what.toLowerCase()}`,
  copied: "Copied",
  showMore: (lines, count) => (count === 1 ? "Show 1 more line" : `Show ${lines} more lines`),
  showLess: "Show less",
  collapseCard: "Hide the program and its output",
  expandCard: "Show the program and its output",
  hiddenLines: (count) => `${count} lines hidden`,
  hiddenCharacters: (count) => `${count} characters hidden`,
  showAll: "Show all",
  truncated: ({ stream, characters, first, last, total }) => {
    const name = stream.toLowerCase();
    return last === null
      ? `Only the start of the ${name} was kept; the ${characters} characters after it were not.`
      : total !== null
        ? `The program printed ${total} lines of ${name}; the first ${first} and the last ${last} were kept.`
        : `Only the start and the end of the ${name} were kept; the ${characters} characters between them were not.`;
  },
  overwritten: "Later output wrote over some of this, as in a terminal.",
  showOverwritten: "Show what was overwritten",
  notKeptLines: (count) => `⋯ ${count} lines not kept ⋯`,
  notKeptCharacters: (count) => `⋯ ${count} characters not kept ⋯`,
  exitCode: (code) => `exit ${code}`,
  exitUnknown: "exit code unknown",
  exited: (code) => `Exit code ${code}`,
  signal: (name) => `stopped by ${name}`,
  stoppedAtLimit: { memory: "Out of memory", "sandbox-full": "Stopped to make room" },
  wallTime: (duration) => duration,
  elapsed: (duration) => duration,
  elapsedOfLimit: (elapsed, limit) => `${elapsed} / ${limit}`,
  spokenElapsed: (elapsed, limit) => (limit ? `Running for ${elapsed} of at most ${limit}` : `Running for ${elapsed}`),
  spokenWallTime: (duration) => `Ran for ${duration}`,
  stop: "Stop the program",
  stopShort: "Stop",
  raised: "The program stopped with",
  timedOut: (limit, printed) =>
    `${limit ? `Stopped after ${limit}` : "Stopped"}: the program ran too long. ${printed ? "What it printed until then is below." : "It printed nothing before then."}`,
  busy: (seconds) =>
    seconds ? `The sandbox is busy. Try again in ${seconds} s.` : "The sandbox is busy. Try again shortly.",
  busyNow: "The sandbox is busy. You can try again now.",
  retry: "Try again",
  denied: "This code was not run.",
  deniedReason: (reason) => `Reason: ${reason}`,
  expired: "The approval request expired, so this code was not run.",
  cancelled: "The run was cancelled before it finished.",
  cancelledNoResult: "The chat ended before this code returned a result.",
  skipped: "This code was not run: a new message was sent before it ran.",
  error: "The code could not be run.",
  unrecognised:
    "The tool answered in a shape this card does not know, so whether the program ran is unclear. Here is the answer as it came:",
  approvalQuestion: "Run this Python program in the sandbox?",
  awaitingApproval: "Nothing runs until you choose Run. Check the code first.",
  awaitingClient: "Waiting for the browser to run the code.",
  run: "Run",
  deny: "Deny",
  addReason: "Add a reason",
  denyReason: "Why not run it? (optional)",
  answerFailed: "Your answer could not be sent. Try again.",
  goToLine: (line) => `Go to line ${line} of the code`,
  figures: "Figures",
  files: "Files",
  download: (name, size) => `Download ${name} (${size})`,
  fileUnavailable: (name) =>
    `${name} could not be loaded. A run's files are kept only for a while, and not when the server restarts: it may be gone.`,
  enlargeFigure: (alt) => `Enlarge the figure: ${alt}`,
  closeFigure: "Close",
  figurePending: "The figure appears when the program ends.",
  filesUsed: "Used:",
  filesGone: (names) =>
    `Gone before the run: ${names}. Files are kept for a while after their last use; attach them again.`,
  continued: "Continues from earlier runs in this chat",
  restarted: "Python was restarted: earlier runs' variables are gone",
  tablePreview: (name) => `First rows of ${name}`,
  tableRowsShown: (rows) => `The first ${rows} rows. Download the file for all of them.`,
};

/** Fills a partial label set from the English defaults. */
export function resolveLabels(overrides?: Partial<ExecuteCodeLabels>): ExecuteCodeLabels {
  if (!overrides) return englishLabels;
  return {
    ...englishLabels,
    ...overrides,
    phase: { ...englishLabels.phase, ...overrides.phase },
    stoppedAtLimit: { ...englishLabels.stoppedAtLimit, ...overrides.stoppedAtLimit },
  };
}
