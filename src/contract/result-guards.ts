// The card reads every result with these checks rather than valibot: they
// accept exactly what the schemas in result.ts and sandbox-response.ts accept
// (tests/result-guards.test.ts holds them to it, case by case), at a third of
// the browser's bytes. The schemas stay the contract and the server's
// validator, with their named problems.

import type { ExecuteCodeFailure } from "./failure.js";
import type { ExecuteCodeProgress } from "./result.js";
import type { SandboxResponse } from "./sandbox-response.js";
import { isFileRefId } from "./file-ref-id.js";

type Check = (value: unknown) => boolean;

// As valibot's `object`: any non-null object (an array too); a key read through `in`.
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
export const isString: Check = (value) => typeof value === "string";
export const isBoolean: Check = (value) => typeof value === "boolean";
const isNumber: Check = (value) => typeof value === "number" && !Number.isNaN(value);
export const isInteger: Check = (value) => Number.isInteger(value);
export const atLeast =
  (min: number, check: Check = isNumber): Check =>
  (value) =>
    check(value) && (value as number) >= min;
const isCount = atLeast(0, isInteger);
const isPixels: Check = (value) => isInteger(value) && (value as number) >= 1 && (value as number) <= 100_000;
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
export const nullish =
  (check: Check): Check =>
  (value) =>
    value === null || value === undefined || check(value);
// Every index, as valibot reads them: `every` would pass over the holes of a sparse array.
export const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && Array.from(value as unknown[]).every(check);

/** An object whose every listed key passes its check; a key it lacks is read as undefined. */
export const objectOf =
  (shape: Record<string, Check>): Check =>
  (value) =>
    isObject(value) && Object.keys(shape).every((key) => (shape[key] as Check)(value[key]));

const perStream = optional(objectOf({ stdout: optional(isCount), stderr: optional(isCount) }));
const truncation = objectOf({ stdout: isCount, stderr: isCount, at: perStream, lines: perStream });
const runFile = objectOf({
  name: isString,
  mediaType: isString,
  size: isCount,
  kind: (value) => value === "image" || value === "file",
  alt: optional(isString),
  width: optional(isPixels),
  height: optional(isPixels),
  ref: objectOf({ sessionId: isFileRefId, fileId: isFileRefId }),
});
const names = optional(arrayOf(isString));
let failureCheck: Check | undefined;

/**
 * Whether a value is a failure's facts in the kit's shape (`failureSchema`,
 * failure.ts), check for check. A function, so that a bundle that does not
 * read the facts (the card's first load) leaves the check out.
 */
export function isFailure(value: unknown): value is ExecuteCodeFailure {
  // Made at the first check: a bundle that never reads the facts has none of this.
  const textOf =
    (max: number): Check =>
    (value) =>
      typeof value === "string" && value.length <= max;
  const listOf =
    (check: Check, max: number): Check =>
    (value) =>
      arrayOf(check)(value) && (value as unknown[]).length <= max;
  const isLine = atLeast(1, isInteger);
  failureCheck ??= objectOf({
    type: textOf(200),
    message: textOf(800),
    function: optional(textOf(160)),
    line: optional(isLine),
    endLine: optional(isLine),
    column: optional(isCount),
    endColumn: optional(isCount),
    values: optional(
      listOf(
        objectOf({
          name: textOf(120),
          value: textOf(240),
          type: textOf(120),
          length: optional(isCount),
          shape: optional(listOf(isCount, 8)),
        }),
        12,
      ),
    ),
    frames: optional(
      listOf(
        objectOf({
          file: textOf(480),
          line: isCount,
          function: textOf(160),
          own: isBoolean,
          module: optional(textOf(120)),
        }),
        50,
      ),
    ),
    explanation: optional(
      objectOf({
        kind: textOf(80),
        name: optional(textOf(240)),
        text: optional(textOf(240)),
        suggestion: optional(textOf(160)),
        count: optional(isCount),
        index: optional(isInteger),
        names: optional(listOf(textOf(120), 16)),
      }),
    ),
  });
  return failureCheck(value);
}
const afterRun = {
  files: optional(arrayOf(runFile)),
  filesCut: optional(isCount),
  filesUsed: names,
  filesGone: names,
  filesRemoved: names,
  continued: optional(isBoolean),
  restarted: optional(isBoolean),
  startedAt: optional(atLeast(0)),
};
const duration = nullable(atLeast(0));
const streams = { stdout: isString, stderr: isString, truncated: truncation };

const byStatus: Record<ExecuteCodeProgress["status"], Check> = {
  completed: objectOf({
    ...streams,
    exitCode: nullable(isInteger),
    signal: nullable(isString),
    wallTimeMs: duration,
    // `failure` is read apart, with isFailure: the schema takes anything there, and so does this.
    ...afterRun,
  }),
  timeout: objectOf({ ...streams, timeoutMs: duration, wallTimeMs: duration, ...afterRun }),
  running: objectOf({
    ...streams,
    timeoutMs: optional(atLeast(0)),
    startedAt: optional(atLeast(0)),
    starting: optional(isBoolean),
    stoppedAt: optional(atLeast(0)),
  }),
  busy: objectOf({ retryAfterMs: duration, message: isString }),
  error: objectOf({ code: isString, message: isString }),
};

/** Whether a value is a result in the kit's own shape (`executeCodeProgressSchema`). */
export function isExecuteCodeProgress(value: unknown): value is ExecuteCodeProgress {
  if (!isObject(value) || !("status" in value)) return false;
  const { status } = value;
  return (
    typeof status === "string" && Object.hasOwn(byStatus, status) && byStatus[status as keyof typeof byStatus](value)
  );
}

const milliseconds = nullish(atLeast(0));
const count = nullish(isCount);

/** Whether a value is a sandbox's flat `/v1/exec` answer (`sandboxResponseSchema`). */
export const isSandboxResponse = objectOf({
  stdout: isString,
  stderr: isString,
  code: nullable(isInteger),
  signal: nullish(isString),
  wall_time: milliseconds,
  session_id: nullish(isString),
  files: nullish(Array.isArray),
  files_cut: count,
  files_read: nullish(arrayOf(isString)),
  files_removed: nullish(arrayOf(isString)),
  files_missing: nullish(arrayOf(objectOf({ name: optional(isString) }))),
  timed_out: optional(isBoolean),
  time_limit_ms: milliseconds,
  status: nullish(isString),
  stdout_truncated: count,
  stderr_truncated: count,
  stdout_truncated_at: count,
  stderr_truncated_at: count,
  stdout_truncated_lines: count,
  stderr_truncated_lines: count,
}) as (value: unknown) => value is SandboxResponse;
