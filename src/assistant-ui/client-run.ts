import { useEffect, useLayoutEffect, useReducer, useRef } from "react";
import type { ExecuteCodeResult } from "../contract/index.js";

/** Runs a program where the chat's client is: `createPyodideWorkerExecutor()` from `execute-code-ui/client-executor`, or your own. */
export interface ExecuteCodeRunner {
  run(code: string, options?: { signal?: AbortSignal }): Promise<ExecuteCodeResult>;
}

/** Error code of a result for a program the person chose not to run in the browser. */
export const CLIENT_DENIED = "execution_denied";

/** The result sent for a program the person chose not to run. */
export function clientDeniedResult(reason?: string): ExecuteCodeResult {
  return {
    status: "error",
    code: CLIENT_DENIED,
    message: `The person chose not to run this program, so it did not run.${reason ? ` Reason: ${reason}` : ""}`,
  };
}

/** The reason inside a `clientDeniedResult`, or null. */
export function clientDenialReason(result: unknown): string | null | undefined {
  if (!result || typeof result !== "object") return undefined;
  const { status, code, message } = result as { status?: unknown; code?: unknown; message?: unknown };
  if (status !== "error" || code !== CLIENT_DENIED) return undefined;
  const reason = typeof message === "string" ? /Reason: ([\s\S]*)$/.exec(message)?.[1] : undefined;
  return reason ?? null;
}

type RunPhase = "running" | "done";

/**
 * One run per call and page: a card that mounts twice (React's strict mode,
 * a thread that re-renders its messages) joins the run that is already going.
 */
const runsByRunner = new WeakMap<ExecuteCodeRunner, Map<string, { phase: RunPhase; listeners: Set<() => void> }>>();

function runsOf(runner: ExecuteCodeRunner) {
  let runs = runsByRunner.get(runner);
  if (!runs) runsByRunner.set(runner, (runs = new Map()));
  return runs;
}

export interface ClientRun {
  /** Whether this page is running the call's program now. */
  running: boolean;
  /** Whether the card should ask before running (the call awaits, nothing ran yet). */
  asking: boolean;
  approve(): void;
  deny(reason?: string): void;
}

/**
 * Runs a client-executed call's program once it is fully written and awaits
 * its result (after the person says Run, when `ask` is on), then adds the
 * result through the runtime, which sends the chat on.
 */
export function useClientRun({
  runner,
  toolCallId,
  code,
  awaiting,
  ask,
  addResult,
}: {
  runner: ExecuteCodeRunner | undefined;
  toolCallId: string;
  code: string | null;
  awaiting: boolean;
  ask: boolean;
  addResult: (result: ExecuteCodeResult) => void;
}): ClientRun {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const latestAdd = useRef(addResult);
  useLayoutEffect(() => {
    latestAdd.current = addResult;
  });
  const record = runner ? runsOf(runner).get(toolCallId) : undefined;

  useEffect(() => {
    if (!runner) return;
    const entry = runsOf(runner).get(toolCallId);
    if (!entry) return;
    entry.listeners.add(rerender);
    return () => void entry.listeners.delete(rerender);
  }, [runner, toolCallId, record]);

  const start = () => {
    if (!runner || code === null) return;
    const runs = runsOf(runner);
    if (runs.has(toolCallId)) return;
    const entry = { phase: "running" as RunPhase, listeners: new Set<() => void>([rerender]) };
    runs.set(toolCallId, entry);
    rerender();
    runner
      .run(code)
      .catch((error: unknown) => ({
        status: "error" as const,
        code: "client_failed",
        message: `Python failed in this browser: ${error instanceof Error ? error.message : String(error)}`,
      }))
      .then((result) => {
        entry.phase = "done";
        latestAdd.current(result);
        for (const listener of entry.listeners) listener();
      });
  };

  const shouldStart = !!runner && awaiting && code !== null && !ask && !record;
  useEffect(() => {
    if (shouldStart) start();
  });

  return {
    running: record?.phase === "running",
    asking: !!runner && awaiting && code !== null && ask && !record,
    approve: start,
    deny: (reason?: string) => {
      if (!runner || runsOf(runner).has(toolCallId)) return;
      runsOf(runner).set(toolCallId, { phase: "done", listeners: new Set() });
      latestAdd.current(clientDeniedResult(reason));
      rerender();
    },
  };
}
