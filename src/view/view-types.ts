// What a renderer is given (the tool call's state) and what the view model
// makes of it (everything the card shows).

import type { ExecuteCodeRunFile, ExecuteCodeTruncation } from "../contract/index.js";
import type { ExecuteCodePhase } from "./phases.js";

/**
 * The tool-call state a renderer receives. Structurally the same as
 * assistant-ui's `ToolCallMessagePartProps`, so those props pass straight in;
 * other chat libraries can fill it by hand.
 */
export interface ExecuteCodeCallState {
  status?: {
    type: "running" | "complete" | "incomplete" | "requires-action";
    reason?: string;
    error?: unknown;
  };
  args?: unknown;
  argsText?: string;
  /** Whether the model has finished the arguments; read from `argsText` when left out. */
  argsComplete?: boolean;
  result?: unknown;
  isError?: boolean;
  approval?: {
    id: string;
    approved?: boolean;
    reason?: string;
    resolution?: "cancelled" | "expired";
  };
  /**
   * Who runs the code. With `"client"` a call that waits for a result is
   * awaiting the browser; with `"server"` (the default) it was stopped.
   */
  execution?: "server" | "client";
}

export interface ExecuteCodeOutput {
  stdout: string;
  stderr: string;
  truncated: ExecuteCodeTruncation;
}

/** Everything the card shows, decided once, from the call state alone. */
export interface ExecuteCodeView {
  phase: ExecuteCodePhase;
  /** The program, growing while the model writes it. */
  code: string;
  /** What the program is about (its first comment or first line), for the card's title; null before it has any. */
  title: string | null;
  /** False while the arguments are still streaming. */
  codeComplete: boolean;
  /** Output panes; null when the program produced none (or never ran). */
  output: ExecuteCodeOutput | null;
  /** Figures and files the run left; empty when there are none. */
  files: ExecuteCodeRunFile[];
  /**
   * What the run started from: of the files it was given, those it opened
   * and those that were gone before it ran; and the Python session it ran
   * in, where a sandbox keeps one per chat: the one the chat's earlier runs
   * left (their variables were there), or a fresh one the model asked for.
   */
  inputs: { used: string[]; gone: string[]; session: "continued" | "restarted" | null };
  exit: { code: number | null; signal: string | null } | null;
  wallTimeMs: number | null;
  timeoutMs: number | null;
  /** While it runs: when the program started (ms since the epoch, by the clock of whoever runs it), where the result says. */
  startedAt: number | null;
  /** While it runs: what runs the program is still loading (Python in the browser); its clock has not started. */
  starting: boolean;
  retryAfterMs: number | null;
  /** Why the tool failed. `raw` holds a result the kit did not recognise. */
  error: { code: string; message: string; raw?: unknown } | null;
  denial: { reason: string | null; expired: boolean } | null;
  /** Why the call stopped early, for the cancelled phase. */
  cancelReason: string | null;
  /** For a failed run, the exception its traceback ends with, said first. */
  exception: string | null;
  /** For a failed run, the line of the program its traceback ends in (1-based), marked in the code. */
  errorLine: number | null;
  /**
   * For a failed run, why it failed as its sandbox saw it, where it said: as
   * the result holds it, to be read with `isFailure` (contract/failure.ts).
   */
  failure: unknown;
}
