// The one pure function that decides a card's phase and what it shows, with
// the readers of each field of a result it needs.

import { APPROVAL_EXPIRED, RUN_STOPPED } from "../contract/error-codes.js";
import { normalizeExecuteCodeResult } from "../contract/normalize.js";
import type { NormalizedExecuteCodeResult } from "../contract/result.js";
import { programTitle } from "./program-title.js";
import type { ExecuteCodeCallState, ExecuteCodeView } from "./view-types.js";
import { pythonLines } from "./python-lines.js";
import { pythonException } from "./python-exception.js";
import { findProgramFrames } from "./traceback.js";
import { isCompleteJson, readStreamingCode, readStreamingString } from "./streaming-args.js";

/** `error.code` of a result whose shape the kit does not know; `error.raw` then holds it. */
export const UNRECOGNISED_RESULT = "unrecognised_result";

/** What a finished or timed-out run printed, left and started from. */
const ranOf = (result: Extract<NormalizedExecuteCodeResult, { status: "completed" | "timeout" }>) => ({
  output: { stdout: result.stdout, stderr: result.stderr, truncated: result.truncated },
  files: result.files ?? [],
  inputs: {
    used: result.filesUsed ?? [],
    gone: result.filesGone ?? [],
    session: result.continued === true ? "continued" : result.restarted === true ? "restarted" : null,
  } satisfies ExecuteCodeView["inputs"],
  wallTimeMs: result.wallTimeMs,
});

const EMPTY_VIEW: Omit<ExecuteCodeView, "phase" | "code" | "codeComplete" | "title"> = {
  output: null,
  files: [],
  inputs: { used: [], gone: [], session: null },
  exit: null,
  wallTimeMs: null,
  timeoutMs: null,
  startedAt: null,
  starting: false,
  retryAfterMs: null,
  error: null,
  denial: null,
  cancelReason: null,
  exception: null,
  errorLine: null,
  failure: null,
};

/** A field of the call's parsed arguments, when it is a string. */
function stringArg(state: ExecuteCodeCallState, key: "code" | "title"): string | null {
  const value = state.args && typeof state.args === "object" ? (state.args as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : null;
}

function readCode(state: ExecuteCodeCallState, complete: boolean): string {
  const parsed = stringArg(state, "code");
  const streamed = state.argsText ? readStreamingCode(state.argsText) : null;
  if (complete) return parsed ?? streamed ?? "";
  // While streaming, the raw text can be ahead of the partial parse.
  if (streamed !== null && streamed.length >= (parsed?.length ?? 0)) return streamed;
  return parsed ?? "";
}

/** The model's title for the program, as far as it has come. */
function readTitle(state: ExecuteCodeCallState): string | null {
  return stringArg(state, "title") ?? (state.argsText ? readStreamingString(state.argsText, "title") : null);
}

function argsComplete(state: ExecuteCodeCallState): boolean {
  if (state.argsComplete !== undefined) return state.argsComplete;
  if (state.argsText) return isCompleteJson(state.argsText);
  return stringArg(state, "code") !== null;
}

/** What a thrown value or an error result says, in words. */
function reasonOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.message;
  if (value && typeof value === "object" && "message" in value) {
    const message = (value as { message: unknown }).message;
    if (typeof message === "string") return message;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** What assistant-ui's AI SDK runtime writes into a pending call when a new message is sent over it. */
const SKIPPED_BY_NEW_MESSAGE = /^User cancelled tool call by sending a new message\.?$/;

function fromResult(result: unknown, isError: boolean): Omit<ExecuteCodeView, "code" | "codeComplete" | "title"> {
  const normalized = normalizeExecuteCodeResult(result);
  if (isError) {
    const message =
      result && typeof result === "object" && "error" in result
        ? reasonOf((result as { error: unknown }).error)
        : reasonOf(result);
    // The student moved on: not a failure of anything, and the code never ran.
    if (SKIPPED_BY_NEW_MESSAGE.test(message)) return { ...EMPTY_VIEW, phase: "skipped" };
    if (normalized.status !== "error") return { ...EMPTY_VIEW, phase: "error", error: { code: "tool_error", message } };
  }
  switch (normalized.status) {
    case "completed": {
      // An empty signal names none: the exit code decides, as the header shows it.
      const signal = normalized.signal || null;
      const failed = signal !== null || (normalized.exitCode !== null && normalized.exitCode !== 0);
      return {
        ...EMPTY_VIEW,
        ...ranOf(normalized),
        phase: failed ? "failed" : "succeeded",
        exit: { code: normalized.exitCode, signal },
        exception: failed ? pythonException(normalized.stderr) : null,
        failure: failed ? (normalized.failure ?? null) : null,
      };
    }
    case "timeout":
      return { ...EMPTY_VIEW, ...ranOf(normalized), phase: "timed-out", timeoutMs: normalized.timeoutMs };
    case "running":
      // Output so far, sent ahead of the final result while the program runs.
      return {
        ...EMPTY_VIEW,
        phase: "running",
        output: { stdout: normalized.stdout, stderr: normalized.stderr, truncated: normalized.truncated },
        timeoutMs: normalized.timeoutMs ?? null,
        startedAt: normalized.startedAt ?? null,
        starting: normalized.starting === true,
        // A run stopped while it streamed: how long it ran (NaN, so null, while either time is missing).
        wallTimeMs: normalized.stoppedAt! - normalized.startedAt! || null,
      };
    case "busy":
      return {
        ...EMPTY_VIEW,
        phase: "busy",
        retryAfterMs: normalized.retryAfterMs,
        error: { code: "busy", message: normalized.message },
      };
    case "error":
      if (normalized.code === APPROVAL_EXPIRED) {
        return { ...EMPTY_VIEW, phase: "denied", denial: { reason: null, expired: true } };
      }
      if (normalized.code === RUN_STOPPED) return { ...EMPTY_VIEW, phase: "cancelled", cancelReason: "stopped" };
      return {
        ...EMPTY_VIEW,
        phase: "error",
        error: { code: normalized.code, message: normalized.message },
      };
    case "unrecognised":
      // The tool answered, in a shape the kit cannot read: the program may well have run.
      return {
        ...EMPTY_VIEW,
        phase: "unrecognised",
        error: { code: UNRECOGNISED_RESULT, message: "", raw: normalized.raw },
      };
  }
}

/**
 * Decides the card's phase and what each pane shows. The only place the
 * phase is derived: the UI renders what this returns.
 */
export function deriveExecuteCodeView(state: ExecuteCodeCallState): ExecuteCodeView {
  const complete = argsComplete(state);
  const code = readCode(state, complete);
  const base = { code, codeComplete: complete, title: programTitle(code, readTitle(state)) };
  const { approval, status } = state;

  // A denial outranks the error result that runtimes attach to it.
  if (approval?.approved === false || approval?.resolution === "expired") {
    // Servers that expire approvals deny them with the reason "expired".
    const expired = approval.resolution === "expired" || approval.reason === "expired";
    return {
      ...base,
      ...EMPTY_VIEW,
      phase: "denied",
      denial: { reason: expired ? null : (approval.reason ?? null), expired },
    };
  }

  if (state.result !== undefined) {
    const view = { ...base, ...fromResult(state.result, !!state.isError) };
    // The traceback's innermost frame in the program: where the student looks first.
    if (view.phase === "failed" && view.output) {
      view.errorLine = findProgramFrames(view.output.stderr, pythonLines(code).length).at(-1)?.programLine ?? null;
    }
    // A run that was streaming its output when the chat stopped never finished; what it printed stays.
    if (view.phase === "running" && status?.type === "incomplete") {
      const printed = view.output && (view.output.stdout || view.output.stderr) ? view.output : null;
      return {
        ...view,
        phase: "cancelled",
        output: printed,
        timeoutMs: null,
        startedAt: null,
        starting: false,
        cancelReason: status.reason ?? null,
      };
    }
    return view;
  }

  if (approval?.resolution === "cancelled") {
    return { ...base, ...EMPTY_VIEW, phase: "cancelled", cancelReason: approval.reason ?? null };
  }
  if (approval && approval.approved === undefined) {
    return { ...base, ...EMPTY_VIEW, phase: "awaiting-approval" };
  }

  switch (status?.type) {
    case "incomplete":
      if (status.reason === "error") {
        return {
          ...base,
          ...EMPTY_VIEW,
          phase: "error",
          error: { code: "run_failed", message: status.error === undefined ? "" : reasonOf(status.error) },
        };
      }
      return { ...base, ...EMPTY_VIEW, phase: "cancelled", cancelReason: status.reason ?? null };
    case "requires-action":
      // Runtimes report a server tool whose run was stopped as waiting for a result.
      if (!complete) return { ...base, ...EMPTY_VIEW, phase: "cancelled", cancelReason: "stopped" };
      return state.execution === "client"
        ? { ...base, ...EMPTY_VIEW, phase: "awaiting-client" }
        : { ...base, ...EMPTY_VIEW, phase: "cancelled", cancelReason: "stopped" };
    case "complete":
      // The message ended and no result ever came back for this call.
      return { ...base, ...EMPTY_VIEW, phase: "cancelled", cancelReason: "no-result" };
    default:
      return { ...base, ...EMPTY_VIEW, phase: complete ? "running" : "writing" };
  }
}
