import type { Executor, OutputStream, RunOutcome, SandboxFault } from "./executor.js";

/** Output the scripted program writes as it runs, each piece after a pause. */
export interface ScriptedChunk {
  stream: OutputStream;
  text: string;
  delayMs?: number;
}

/**
 * A scripted answer: output fields (missing ones default), an optional
 * delay, output written piece by piece (`chunks`, which also make the final
 * stdout and stderr unless those are given), or a fault.
 */
export type ScriptedAnswer =
  | (Partial<RunOutcome> & { delayMs?: number; chunks?: ScriptedChunk[] })
  | { fault: SandboxFault; delayMs?: number };

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Answers each program from a script instead of running it: deterministic
 * output, latency and faults (5xx, malformed JSON, reset connections, 429)
 * for tests of everything around the sandbox.
 */
export function createScriptedExecutor(script: (code: string) => ScriptedAnswer | Promise<ScriptedAnswer>): Executor {
  return {
    async run({ code, signal, onStart, onOutput }) {
      const answer = await script(code);
      // A fault stands for the service failing, not a program that started.
      if (!("fault" in answer)) onStart?.();
      const written = { stdout: "", stderr: "" };
      for (const chunk of ("chunks" in answer && answer.chunks) || []) {
        if (chunk.delayMs) await pause(chunk.delayMs, signal);
        if (signal.aborted) break;
        written[chunk.stream] += chunk.text;
        onOutput?.(chunk.stream, chunk.text);
      }
      if (answer.delayMs) await pause(answer.delayMs, signal);
      if ("fault" in answer) return { fault: answer.fault };
      return {
        stdout: answer.stdout ?? written.stdout,
        stderr: answer.stderr ?? written.stderr,
        exitCode: answer.exitCode === undefined ? 0 : answer.exitCode,
        signal: answer.signal ?? null,
        wallTimeMs: answer.wallTimeMs ?? answer.delayMs ?? 1,
        timedOut: answer.timedOut ?? false,
        ...(answer.truncated ? { truncated: answer.truncated } : {}),
        ...(answer.files ? { files: answer.files } : {}),
        ...(answer.failure ? { failure: answer.failure } : {}),
      };
    },
    async close() {},
  };
}
