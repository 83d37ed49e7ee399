import type { Executor, RunOutcome, SandboxFault } from "./executor.js";

/** A scripted answer: output fields (missing ones default), an optional delay, or a fault. */
export type ScriptedAnswer =
  | (Partial<RunOutcome> & { delayMs?: number })
  | { fault: SandboxFault; delayMs?: number };

/**
 * Answers each program from a script instead of running it: deterministic
 * output, latency and faults (5xx, malformed JSON, reset connections, 429)
 * for tests of everything around the sandbox.
 */
export function createScriptedExecutor(
  script: (code: string) => ScriptedAnswer | Promise<ScriptedAnswer>,
): Executor {
  return {
    async run({ code, signal }) {
      const answer = await script(code);
      if (answer.delayMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, answer.delayMs);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if ("fault" in answer) return { fault: answer.fault };
      return {
        stdout: answer.stdout ?? "",
        stderr: answer.stderr ?? "",
        exitCode: answer.exitCode === undefined ? 0 : answer.exitCode,
        signal: answer.signal ?? null,
        wallTimeMs: answer.wallTimeMs ?? answer.delayMs ?? 1,
        timedOut: answer.timedOut ?? false,
        ...(answer.truncated ? { truncated: answer.truncated } : {}),
      };
    },
    async close() {},
  };
}
