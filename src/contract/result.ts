// zod/mini keeps the browser bundle small; the schemas are the same.
import * as z from "zod/mini";

/** Characters the server cut from each stream; 0 when nothing was cut. */
const count = z.int().check(z.nonnegative());
const duration = z.nullable(z.number().check(z.nonnegative()));

export const truncationSchema = z.object({
  stdout: count,
  stderr: count,
});

/** The program ran to its end (or was killed by a signal). */
export const completedResultSchema = z.object({
  status: z.literal("completed"),
  stdout: z.string(),
  stderr: z.string(),
  /** Exit status; null when a signal ended the process. */
  exitCode: z.nullable(z.int()),
  /** Signal name such as "SIGKILL", when one ended the process. */
  signal: z.nullable(z.string()),
  wallTimeMs: duration,
  truncated: truncationSchema,
});

/** The program ran past the time limit; what it printed so far is kept. */
export const timeoutResultSchema = z.object({
  status: z.literal("timeout"),
  timeoutMs: duration,
  stdout: z.string(),
  stderr: z.string(),
  wallTimeMs: duration,
  truncated: truncationSchema,
});

/** The sandbox is rate-limited; a retry makes sense after `retryAfterMs`. */
export const busyResultSchema = z.object({
  status: z.literal("busy"),
  retryAfterMs: duration,
  message: z.string(),
});

/** Error code of a call whose approval came too late: the card shows it as an expired approval. */
export const APPROVAL_EXPIRED = "approval_expired";

/** The tool itself failed: the program may not have run at all. */
export const errorResultSchema = z.object({
  status: z.literal("error"),
  /** A stable machine-readable code, e.g. "sandbox_unavailable". */
  code: z.string(),
  /** A sentence a student can read and a model can act on. */
  message: z.string(),
});

/** The kit's own result of one `execute_code` call. */
export const executeCodeResultSchema = z.discriminatedUnion("status", [
  completedResultSchema,
  timeoutResultSchema,
  busyResultSchema,
  errorResultSchema,
]);

export type ExecuteCodeTruncation = z.infer<typeof truncationSchema>;
export type ExecuteCodeCompletedResult = z.infer<typeof completedResultSchema>;
export type ExecuteCodeTimeoutResult = z.infer<typeof timeoutResultSchema>;
export type ExecuteCodeBusyResult = z.infer<typeof busyResultSchema>;
export type ExecuteCodeErrorResult = z.infer<typeof errorResultSchema>;
export type ExecuteCodeResult = z.infer<typeof executeCodeResultSchema>;

/** A result whose shape the kit does not know; shown raw, never dropped. */
export interface UnrecognisedResult {
  status: "unrecognised";
  raw: unknown;
}

export type NormalizedExecuteCodeResult = ExecuteCodeResult | UnrecognisedResult;
