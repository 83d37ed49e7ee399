// What a sandbox's answer says about its run, apart from the schema: the
// card reads answers with result-guards.ts and never loads valibot.

import type { SandboxResponse } from "./sandbox-response.js";
import type { EarlierCut } from "./truncate.js";

/** Whether the sandbox ended the run for taking too long. */
export function sandboxTimedOut(response: SandboxResponse): boolean {
  return response.timed_out === true || response.status === "TO";
}

/** What the sandbox cut before answering, per stream (nothing when it does not say). */
export function sandboxTruncation(response: SandboxResponse): Record<"stdout" | "stderr", EarlierCut> {
  return {
    stdout: {
      cut: response.stdout_truncated ?? 0,
      at: response.stdout_truncated_at ?? undefined,
      cutLines: response.stdout_truncated_lines ?? 0,
    },
    stderr: {
      cut: response.stderr_truncated ?? 0,
      at: response.stderr_truncated_at ?? undefined,
      cutLines: response.stderr_truncated_lines ?? 0,
    },
  };
}
