import { useEffect, useLayoutEffect, useReducer, useRef } from "react";
import { RUN_STOPPED } from "../contract/error-codes.js";
import type { ExecuteCodeResult, ExecuteCodeRunningResult } from "../contract/result.js";
import { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS } from "../contract/limits.js";
import { streamsInWords } from "../contract/streams-in-words.js";
import { keepHeadAndTail, keepHeadAndTailAfter, truncationOf, type EarlierCut } from "../contract/truncate.js";
import type { ExecuteCodeRunner } from "../contract/runner.js";
import { errorMessage } from "../contract/error-message.js";

export type { ExecuteCodeRunner };

/** Live output reaches the card at most this often while a browser run prints. */
const LIVE_OUTPUT_MS = 100;

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

/** Characters of what a stopped program printed that the model reads. */
const STOPPED_OUTPUT_CHARS = 2000;

/** The result sent for a program the person stopped: the model learns what it printed so far. */
export function clientStoppedResult(output: ExecuteCodeRunningResult | null): ExecuteCodeResult {
  const kept = (stream: "stdout" | "stderr") => keepHeadAndTail(output?.[stream] ?? "", STOPPED_OUTPUT_CHARS);
  const stdout = kept("stdout");
  const stderr = kept("stderr");
  const printed =
    stdout.text || stderr.text
      ? `\nWhat it printed until then:\n${streamsInWords({ stdout: stdout.text, stderr: stderr.text, truncated: truncationOf(stdout, stderr) }).join("\n")}`
      : "";
  return {
    status: "error",
    code: RUN_STOPPED,
    message: `The person stopped the program before it finished.${printed}`,
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

interface RunRecord {
  phase: RunPhase;
  listeners: Set<() => void>;
  /** What the program has printed so far, within the limits of a result. */
  output: ExecuteCodeRunningResult | null;
  /** Once done: the result added through the runtime, shown until the message holds it. */
  result?: ExecuteCodeResult;
  /** Ends the run (the person pressed Stop). */
  stop: AbortController;
}

/**
 * One run per call and page: a card that mounts twice (React's strict mode,
 * a thread that re-renders its messages) joins the run that is already going.
 */
const runsByRunner = new WeakMap<ExecuteCodeRunner, Map<string, RunRecord>>();

/** Adds a piece of output to what the run has printed, keeping each stream within its limit. */
function append(
  output: ExecuteCodeRunningResult | null,
  stream: "stdout" | "stderr",
  text: string,
): ExecuteCodeRunningResult {
  const so = output ?? { status: "running", stdout: "", stderr: "", truncated: { stdout: 0, stderr: 0 } };
  const limit = stream === "stdout" ? DEFAULT_MAX_STDOUT_CHARS : DEFAULT_MAX_STDERR_CHARS;
  // The text so far has its start and its latest end: the new piece joins the end, the middle grows.
  const cutOf = (name: "stdout" | "stderr") => ({
    cut: so.truncated[name],
    at: so.truncated.at?.[name],
    cutLines: so.truncated.lines?.[name] ?? 0,
  });
  const kept = keepHeadAndTailAfter(so[stream] + text, limit, cutOf(stream));
  const both: Record<"stdout" | "stderr", EarlierCut> = {
    stdout: cutOf("stdout"),
    stderr: cutOf("stderr"),
    [stream]: kept,
  };
  return { ...so, [stream]: kept.text, truncated: truncationOf(both.stdout, both.stderr) };
}

/**
 * A run's output before it printed: its limit beside the clock, and either
 * that Python is still loading (a runner that says when the program starts)
 * or that the program starts now.
 */
function firstOutput(runner: ExecuteCodeRunner): ExecuteCodeRunningResult | null {
  if (runner.timeoutMs === undefined && !runner.reportsStart) return null;
  return {
    status: "running",
    stdout: "",
    stderr: "",
    truncated: { stdout: 0, stderr: 0 },
    ...(runner.timeoutMs === undefined ? {} : { timeoutMs: runner.timeoutMs }),
    ...(runner.reportsStart ? { starting: true } : { startedAt: Date.now() }),
  };
}

function runsOf(runner: ExecuteCodeRunner) {
  let runs = runsByRunner.get(runner);
  if (!runs) {
    runs = new Map();
    runsByRunner.set(runner, runs);
  }
  return runs;
}

export interface ClientRun {
  /** Whether this page is running the call's program now. */
  running: boolean;
  /** While it runs: what the program has printed so far, as a running result for the card. */
  output: ExecuteCodeRunningResult | null;
  /**
   * Once done: the result this page added, until the message holds it (the
   * runtime may send it to a server first): the card shows the run as ended
   * at once, not a clock that goes on ticking.
   */
  result: ExecuteCodeResult | null;
  /** Whether the card should ask before running (the call awaits, nothing ran yet). */
  asking: boolean;
  approve(): void;
  deny(reason?: string): void;
  /** Stops the program this page runs; its result says it was stopped. */
  stop(): void;
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
    const entry: RunRecord = {
      phase: "running",
      listeners: new Set<() => void>([rerender]),
      output: firstOutput(runner),
      stop: new AbortController(),
    };
    runs.set(toolCallId, entry);
    rerender();
    const notify = () => {
      for (const listener of entry.listeners) listener();
    };
    let pending: ReturnType<typeof setTimeout> | undefined;
    const onOutput = (stream: "stdout" | "stderr", text: string) => {
      entry.output = append(entry.output, stream, text);
      pending ??= setTimeout(() => {
        pending = undefined;
        if (entry.phase === "running") notify();
      }, LIVE_OUTPUT_MS);
    };
    // Python has loaded: the clock starts now, not when the card asked to run.
    const onStart = (startedAt: number) => {
      entry.output = { ...(entry.output ?? append(null, "stdout", "")), starting: false, startedAt };
      if (entry.phase === "running") notify();
    };
    const { signal } = entry.stop;
    runner
      .run(code, { signal, onOutput, onStart })
      .catch(
        (error: unknown): ExecuteCodeResult =>
          signal.aborted
            ? clientStoppedResult(entry.output)
            : {
                status: "error",
                code: "client_failed",
                message: `Python failed in this browser: ${errorMessage(error)}`,
              },
      )
      .then((result) => {
        clearTimeout(pending);
        entry.phase = "done";
        try {
          latestAdd.current(result);
          // Shown as the run's end only once the runtime has taken it.
          entry.result = result;
        } finally {
          notify();
        }
      });
  };

  const shouldStart = !!runner && awaiting && code !== null && !ask && !record;
  useEffect(() => {
    if (shouldStart) start();
  });

  return {
    running: record?.phase === "running",
    output: record?.phase === "running" ? record.output : null,
    result: record?.phase === "done" ? (record.result ?? null) : null,
    asking: !!runner && awaiting && code !== null && ask && !record,
    approve: start,
    deny: (reason?: string) => {
      if (!runner || runsOf(runner).has(toolCallId)) return;
      const result = clientDeniedResult(reason);
      runsOf(runner).set(toolCallId, {
        phase: "done",
        listeners: new Set(),
        output: null,
        result,
        stop: new AbortController(),
      });
      latestAdd.current(result);
      rerender();
    },
    stop: () => record?.stop.abort(),
  };
}
