// valibot keeps the browser bundle small: the card validates every result it renders.
import * as v from "valibot";
import { isFileRefId } from "./file-ref-id.js";

/** A whole number, 0 or more. */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const pixels = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000));
/** Milliseconds, or null where not known. */
const duration = v.nullable(v.pipe(v.number(), v.minValue(0)));
/** A moment, in milliseconds since the epoch. */
const epochMs = v.pipe(v.number(), v.minValue(0));

/** One segment of a file's address in the app's file route: never empty, `.` or `..`. */
const refId = v.pipe(
  v.string(),
  v.check((id) => isFileRefId(id), "a file id the file route can take"),
);

const perStream = v.object({ stdout: v.optional(count), stderr: v.optional(count) });

/**
 * Characters cut from each stream; 0 when nothing was cut. Long output keeps
 * its start and its end: `at` says where in the kept text the cut is, and
 * `lines` how many line breaks the cut part held. A result without `at` for a
 * cut stream was cut at its end.
 */
export const truncationSchema = v.object({
  stdout: count,
  stderr: count,
  at: v.optional(perStream),
  lines: v.optional(perStream),
});

/**
 * A file the run left in its working directory, or a figure it drew: the
 * bytes stay with the sandbox, and `ref` is what the app's file route
 * resolves (for codeapi, the session and file ids of `/v1/exec`'s `files`).
 */
export const runFileSchema = v.object({
  name: v.string(),
  mediaType: v.string(),
  size: count,
  /** "image" for a raster image the card may show; anything else is a download. */
  kind: v.picklist(["image", "file"]),
  /** For a figure: what it shows (its title and axis labels), as alt text. */
  alt: v.optional(v.string()),
  /** For an image, its size in pixels when the sandbox tells it: the card keeps that much room before it loads. */
  width: v.optional(pixels),
  height: v.optional(pixels),
  ref: v.object({ sessionId: refId, fileId: refId }),
});

/** What a run that ended left and started from, whether it finished or ran out of time. */
const afterRunFields = {
  /** Files and figures the run left; absent when there are none. */
  files: v.optional(v.array(runFileSchema)),
  /** Files the run left that the sandbox did not keep (past its caps on files), so not in `files`; absent when none. */
  filesCut: v.optional(count),
  /** Of the files the run was given (the student's, earlier runs'), those the program opened; absent when none. */
  filesUsed: v.optional(v.array(v.string())),
  /** Files the run was to be given that the sandbox no longer kept (expired): not in its working directory. */
  filesGone: v.optional(v.array(v.string())),
  /** Given files the program removed: the chat's next runs do not get them. */
  filesRemoved: v.optional(v.array(v.string())),
  /** True when the run started from the variables earlier runs of its chat left (a sandbox that keeps a chat's session). */
  continued: v.optional(v.boolean()),
  /** True when the run was asked to start in a fresh Python session (`restart`), and did: earlier runs' variables were gone. */
  restarted: v.optional(v.boolean()),
  /** When the program started, by the clock of whoever ran it (the server, the page); absent where not known. */
  startedAt: v.optional(epochMs),
};

/** The program ran to its end (or was killed by a signal). */
export const completedResultSchema = v.object({
  status: v.literal("completed"),
  stdout: v.string(),
  stderr: v.string(),
  /** Exit status; null when a signal ended the process. */
  exitCode: v.nullable(v.pipe(v.number(), v.integer())),
  /** Signal name such as "SIGKILL", when one ended the process. */
  signal: v.nullable(v.string()),
  wallTimeMs: duration,
  truncated: truncationSchema,
  /**
   * Why it failed, where its sandbox said: the failing frame, its values, the
   * exact span (`failureSchema`, failure.ts). Checked where it is read
   * (`readFailure`, `isFailure`), not here: facts in another shape cost no run.
   */
  failure: v.optional(v.unknown()),
  ...afterRunFields,
});

/** The program ran past the time limit; what it printed so far is kept. */
export const timeoutResultSchema = v.object({
  status: v.literal("timeout"),
  timeoutMs: duration,
  stdout: v.string(),
  stderr: v.string(),
  wallTimeMs: duration,
  truncated: truncationSchema,
  ...afterRunFields,
});

/**
 * The program is still running: the output so far, sent ahead of the final
 * result while the run streams. Never the last word on a call.
 */
export const runningResultSchema = v.object({
  status: v.literal("running"),
  stdout: v.string(),
  stderr: v.string(),
  truncated: truncationSchema,
  /** The run's time limit, so the card can show it beside the clock. */
  timeoutMs: v.optional(v.pipe(v.number(), v.minValue(0))),
  /**
   * When the program started, by the server's clock (the page's, for a run
   * in the browser): the card's clock counts from it, the same after a
   * reload. Absent where not known: the card counts from when it mounted.
   */
  startedAt: v.optional(epochMs),
  /** True while what runs the program is still loading (Python in the browser): its clock and limit have not started. */
  starting: v.optional(v.boolean()),
  /**
   * When the run was stopped before it finished, by the server's clock: set
   * on the last output a stopped run streamed, so the card says how long it
   * ran, the same after a reload.
   */
  stoppedAt: v.optional(epochMs),
});

/** The sandbox is rate-limited; a retry makes sense after `retryAfterMs`. */
export const busyResultSchema = v.object({
  status: v.literal("busy"),
  retryAfterMs: duration,
  message: v.string(),
});

export { APPROVAL_EXPIRED, RUN_STOPPED } from "./error-codes.js";

/** The tool itself failed: the program may not have run at all. */
export const errorResultSchema = v.object({
  status: v.literal("error"),
  /** A stable machine-readable code, e.g. "sandbox_unavailable". */
  code: v.string(),
  /** A sentence a student can read and a model can act on. */
  message: v.string(),
});

/** The kit's own result of one `execute_code` call. */
export const executeCodeResultSchema = v.variant("status", [
  completedResultSchema,
  timeoutResultSchema,
  busyResultSchema,
  errorResultSchema,
]);

/** A final result, or the output so far of a run that is still going. */
export const executeCodeProgressSchema = v.variant("status", [
  completedResultSchema,
  timeoutResultSchema,
  busyResultSchema,
  errorResultSchema,
  runningResultSchema,
]);

export type ExecuteCodeTruncation = v.InferOutput<typeof truncationSchema>;
export type ExecuteCodeRunFile = v.InferOutput<typeof runFileSchema>;
export type ExecuteCodeCompletedResult = v.InferOutput<typeof completedResultSchema>;
export type ExecuteCodeTimeoutResult = v.InferOutput<typeof timeoutResultSchema>;
export type ExecuteCodeBusyResult = v.InferOutput<typeof busyResultSchema>;
export type ExecuteCodeErrorResult = v.InferOutput<typeof errorResultSchema>;
export type ExecuteCodeResult = v.InferOutput<typeof executeCodeResultSchema>;
export type ExecuteCodeRunningResult = v.InferOutput<typeof runningResultSchema>;
/** What a streaming tool hands the chat: the output so far, then the final result. */
export type ExecuteCodeProgress = v.InferOutput<typeof executeCodeProgressSchema>;

/** A result whose shape the kit does not know; shown raw, never dropped. */
export interface UnrecognisedResult {
  status: "unrecognised";
  raw: unknown;
}

export type NormalizedExecuteCodeResult = ExecuteCodeProgress | UnrecognisedResult;
