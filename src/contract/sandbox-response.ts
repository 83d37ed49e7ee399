import * as z from "zod/mini";

const milliseconds = z.nullish(z.number().check(z.nonnegative()));

/** The sandbox service's flat `/v1/exec` answer. Times are in milliseconds. */
export const sandboxResponseSchema = z.object({
  stdout: z.string(),
  stderr: z.string(),
  /** Exit status; null when a signal ended the process. */
  code: z.nullable(z.int()),
  signal: z.nullish(z.string()),
  wall_time: milliseconds,
  session_id: z.nullish(z.string()),
  files: z.nullish(z.array(z.unknown())),
  timed_out: z.optional(z.boolean()),
  /** The sandbox's own run-time limit, when it says. */
  time_limit_ms: milliseconds,
  /** Some sandboxes say "TO" here for a run that hit the time limit. */
  status: z.nullish(z.string()),
});

export type SandboxResponse = z.infer<typeof sandboxResponseSchema>;

/** Whether the sandbox ended the run for taking too long. */
export function sandboxTimedOut(response: SandboxResponse): boolean {
  return response.timed_out === true || response.status === "TO";
}
