import type { ExecuteCodeTruncation } from "../../contract/result.js";
import { CappedText, firstChars, truncationOf } from "../../contract/truncate.js";

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
  /** Called with each piece of output as the program writes it (for live output). */
  onOutput?: (stream: OutputStream, text: string) => void;
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

/**
 * A run's output as the parent keeps it: each stream's start and its latest
 * characters, `limit` in all (the kit's one policy, contract/truncate.ts),
 * the middle counted. Pieces go on to `onOutput` until a stream has sent
 * `limit` characters live; its last lines still come with the result.
 */
export function collectOutput(limit: number, onOutput?: RunRequest["onOutput"]) {
  const kept = { stdout: new CappedText(limit), stderr: new CappedText(limit) };
  const sent = { stdout: 0, stderr: 0 };
  return {
    add(stream: OutputStream, text: string) {
      if (!text) return;
      kept[stream].add(text);
      const room = limit - sent[stream];
      if (room <= 0) return;
      const piece = text.length <= room ? text : firstChars(text, room);
      sent[stream] += piece.length;
      notify(onOutput, stream, piece);
    },
    /** The kept text of each stream. */
    output: () => ({ stdout: kept.stdout.text, stderr: kept.stderr.text }),
    /** What was cut, and where, as a result says it. */
    truncated: (): ExecuteCodeTruncation => truncationOf(kept.stdout.kept(), kept.stderr.kept()),
  };
}

/** The files a run left but for those it was given and left as they were: those are kept already. */
export function changedFiles(files: RunFileOutput[] | undefined, given: RunFileInput[] | undefined): RunFileOutput[] {
  if (!files || !given?.length) return files ?? [];
  const before = new Map(given.map((file) => [file.name, file.bytes]));
  return files.filter((file) => {
    const was = before.get(file.name);
    return !was || !Buffer.from(was).equals(file.bytes);
  });
}
