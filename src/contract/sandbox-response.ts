import * as v from "valibot";

const milliseconds = v.nullish(v.pipe(v.number(), v.minValue(0)));
const count = v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0)));

/** The sandbox service's flat `/v1/exec` answer. Times are in milliseconds. */
export const sandboxResponseSchema = v.object({
  stdout: v.string(),
  stderr: v.string(),
  /** Exit status; null when a signal ended the process. */
  code: v.nullable(v.pipe(v.number(), v.integer())),
  signal: v.nullish(v.string()),
  wall_time: milliseconds,
  session_id: v.nullish(v.string()),
  files: v.nullish(v.array(v.unknown())),
  /** Files the run left that the sandbox did not keep (past its caps on files, or with no room to keep them), so not in `files`. */
  files_cut: count,
  /** Names of the files the run was given that the program opened, where the sandbox can tell. */
  files_read: v.nullish(v.array(v.string())),
  /** Names of the files the run was given that the program removed: not for the next run. */
  files_removed: v.nullish(v.array(v.string())),
  /** The `files` of the request the sandbox no longer kept (expired, or never the caller's). */
  files_missing: v.nullish(v.array(v.object({ name: v.optional(v.string()) }))),
  timed_out: v.optional(v.boolean()),
  /** The sandbox's own run-time limit, when it says. */
  time_limit_ms: milliseconds,
  /** Some sandboxes say "TO" here for a run that hit the time limit. */
  status: v.nullish(v.string()),
  /** Characters the sandbox itself cut from each stream past its output cap. */
  stdout_truncated: count,
  stderr_truncated: count,
  /** Where in the stream it sent the cut is (it kept the start and the end); absent: at the end. */
  stdout_truncated_at: count,
  stderr_truncated_at: count,
  /** Line breaks in what it cut. */
  stdout_truncated_lines: count,
  stderr_truncated_lines: count,
  /** Why the program failed (contract/failure.ts), from the kit's own sandbox; read apart, so that facts in another shape lose no run. */
  failure: v.nullish(v.unknown()),
});

export type SandboxResponse = v.InferOutput<typeof sandboxResponseSchema>;

/** Reads a sandbox answer; on failure, names the fields that are missing or wrong. */
export function parseSandboxResponse(
  value: unknown,
): { success: true; response: SandboxResponse } | { success: false; problems: string[] } {
  const parsed = v.safeParse(sandboxResponseSchema, value);
  if (parsed.success) return { success: true, response: parsed.output };
  return { success: false, problems: parsed.issues.map((issue) => v.getDotPath(issue) ?? issue.message) };
}
