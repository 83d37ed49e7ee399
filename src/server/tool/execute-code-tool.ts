import { tool, type Tool } from "ai";
import { executeCodeInputSchema, type ExecuteCodeInput } from "../../contract/input.js";
import type { ExecuteCodeProgress, ExecuteCodeResult, ExecuteCodeRunningResult } from "../../contract/index.js";
import { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS, DEFAULT_TIMEOUT_MS } from "../../contract/limits.js";
import { DEFAULT_QUEUE_TIMEOUT_MS, runClock } from "./run-clock.js";
import { toNeedsApproval, type ApprovalPolicy } from "./approval-gate.js";
import { describeModelOutput } from "./model-output.js";
import { describeNetworkError } from "./network-error.js";
import { sandboxError, type Sandbox, type SandboxOutcome } from "../sandbox.js";
import { codeapiSandbox } from "../codeapi/codeapi-sandbox.js";
import { throttleLatest } from "./throttle-latest.js";
import type { TokenMinter, TokenMinterOptions } from "../token.js";
import { MAX_CHAT_FILES, type ChatFile } from "./chat-files.js";
import { describeExecuteCode } from "./execute-code-description.js";

export interface ExecutionCost {
  /** The flat cost of one execution, in the unit the host chose. */
  amount: number;
  toolCallId: string;
  participantId: string;
  tenantId: string;
  chatbotId: string | undefined;
}

export interface ExecuteCodeLogEvent {
  type: "execute_code";
  toolCallId: string;
  participantId: string;
  tenantId: string;
  chatbotId: string | undefined;
  /** `completed`, `timeout`, `busy` or `error`. */
  status: ExecuteCodeResult["status"];
  exitCode: number | null;
  /** Run time reported by the sandbox. */
  wallTimeMs: number | null;
  /** Time the whole call took, token and network included. */
  durationMs: number;
  /** The error code for `status: "error"`. */
  errorCode?: string;
  /** The program, only when `logCode` is on. */
  code?: string;
}

/** The tool on a codeapi service: its URL and the key its tokens are signed with. */
export interface ExecuteCodeToolContext extends ExecuteCodeToolOptions {
  /** Base URL of the sandbox service; the tool POSTs to `/v1/exec` under it. */
  sandboxUrl: string;
  /** How to sign each execution's token: key options, or a minter of your own. */
  signing: TokenMinterOptions | TokenMinter;
  sandbox?: undefined;
}

/** The tool on any `Sandbox`: `createJupyterSandbox(…)`, `codeapiSandbox(…)` or your own. */
export interface ExecuteCodeSandboxContext extends ExecuteCodeToolOptions {
  sandbox: Sandbox;
}

/** What the tool takes whatever runs the programs. */
export interface ExecuteCodeToolOptions {
  participantId: string;
  tenantId: string;
  chatbotId?: string;
  /**
   * Where the request came from (`ServerToolsContext.client`), where the
   * host knows it: a sandbox may cap what one client's students hold
   * together (`createJupyterSandbox`'s `maxKernelsPerClient`), and a codeapi
   * sandbox gets it as the token's `client` claim (the sandbox shares
   * its turns by it).
   */
  clientId?: string;
  /** The chat the tool runs for (`ServerToolsContext.chatId`): a sandbox with a kernel per chat keeps its state by it. */
  chatId?: string;
  /**
   * The tool's own limit for a program's run, default 60 000 ms. With a
   * sandbox that streams, it counts from the program's start; a wait for a
   * free slot before it does not count (see `queueTimeoutMs`).
   */
  timeoutMs?: number;
  /**
   * Longest wait for the sandbox to start the program, default 60 000 ms.
   * A program still waiting after it is a `busy` result: it never ran. A
   * sandbox that does not stream cannot say when it started, so the call
   * then has both limits together.
   */
  queueTimeoutMs?: number;
  /** Characters of stdout kept, half from its start and half from its end; by default 8 000. */
  maxStdoutChars?: number;
  /** Characters of stderr kept, half from its start and half from its end; by default 4 000. */
  maxStderrChars?: number;
  /**
   * Flat cost reported through `onCost` for each execution that reached the sandbox.
   * @default 1
   */
  costPerExecution?: number;
  onCost?: (cost: ExecutionCost) => void;
  log?: (event: ExecuteCodeLogEvent) => void;
  /** Put the program into log events too (off by default: programs can hold personal data). */
  logCode?: boolean;
  fetch?: typeof fetch;
  /** Replaces the tool description the model sees. */
  description?: string;
  /**
   * Python packages the sandbox has beyond the standard library, named to the model (`["numpy", "pandas"]`).
   * @default none
   */
  packages?: string[];
  /** Ask the user before each run: "never" (default), "always", or a function of the input. */
  approval?: ApprovalPolicy<ExecuteCodeInput>;
  /**
   * The chat's files (`chatFiles(messages)`: the student's attachments and
   * what earlier runs wrote): each run gets them in its working directory,
   * and the files a run writes go to the runs after it. Without them every
   * run starts empty.
   */
  files?: readonly ChatFile[];
}

/** Preliminary results go out at most this often: about ten a second. */
const PROGRESS_INTERVAL_MS = 100;

function safely(hook: (() => void) | undefined): void {
  try {
    hook?.();
  } catch {
    // A failing hook must not take the student's result with it.
  }
}

/**
 * The `execute_code` tool for the AI SDK: runs the model's Python in the
 * sandbox service and returns the kit's result type. Merge it into
 * `streamText({ tools: { execute_code: createExecuteCodeTool(ctx) } })`.
 */
export function createExecuteCodeTool(
  ctx: ExecuteCodeToolContext | ExecuteCodeSandboxContext,
): Tool<ExecuteCodeInput, ExecuteCodeResult | ExecuteCodeRunningResult> {
  const timeoutMs = ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const queueTimeoutMs = ctx.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
  const limits = {
    stdout: ctx.maxStdoutChars ?? DEFAULT_MAX_STDOUT_CHARS,
    stderr: ctx.maxStderrChars ?? DEFAULT_MAX_STDERR_CHARS,
  };
  const sandbox = ctx.sandbox ?? codeapiSandbox({ url: ctx.sandboxUrl, signing: ctx.signing, fetch: ctx.fetch });
  // The chat's files as of this model run; a run's new files go to the calls after it.
  const keepsFiles = ctx.files !== undefined && sandbox.keepsFiles !== false;
  // A sandbox that keeps no files gets only the student's own (which it refuses, saying so): what earlier
  // runs wrote, such as their figures, is the student's to see, not the next run's to open.
  const files = new Map(
    (ctx.files ?? []).filter((file) => keepsFiles || file.from === "student").map((file) => [file.name, file]),
  );
  const given = () =>
    [...files.values()]
      .slice(-MAX_CHAT_FILES)
      .map((file) => ({ id: file.ref.fileId, session_id: file.ref.sessionId, name: file.name }));
  const keep = (result: ExecuteCodeResult) => {
    if (!keepsFiles || (result.status !== "completed" && result.status !== "timeout")) return;
    for (const name of [...(result.filesGone ?? []), ...(result.filesRemoved ?? [])]) files.delete(name);
    for (const file of result.files ?? []) {
      files.delete(file.name);
      files.set(file.name, { ...file, from: "run" });
    }
  };

  return tool({
    description:
      ctx.description ??
      describeExecuteCode({
        packages: ctx.packages ?? sandbox.packages,
        keepsFiles,
        sharesSession: !!(sandbox.keepsVariables && ctx.chatId),
        files: [...files.values()].slice(-MAX_CHAT_FILES),
        timeoutMs,
        ...(sandbox.workDir ? { workDir: sandbox.workDir } : {}),
      }),
    inputSchema: executeCodeInputSchema,
    needsApproval: toNeedsApproval(ctx.approval),
    // An async generator: while a streaming sandbox runs the program, the
    // chat gets the output so far as preliminary results (the model only ever
    // sees the last one, the final result).
    async *execute({ code, restart }, { abortSignal, toolCallId }): AsyncGenerator<ExecuteCodeProgress> {
      const started = performance.now();
      const clock = runClock(timeoutMs, queueTimeoutMs);
      const signal = abortSignal ? AbortSignal.any([abortSignal, clock.signal]) : clock.signal;

      let outcome: SandboxOutcome | null = null;
      let latest: ExecuteCodeRunningResult | null = null;
      let runLimitMs = timeoutMs;
      try {
        const run = sandbox.run({
          code,
          files: given(),
          participantId: ctx.participantId,
          tenantId: ctx.tenantId,
          ...(ctx.chatId ? { chatId: ctx.chatId } : {}),
          ...(ctx.clientId ? { clientId: ctx.clientId } : {}),
          ...(restart ? { restart } : {}),
          timeoutMs,
          limits,
          signal,
        });
        const events = throttleLatest(run, PROGRESS_INTERVAL_MS, (e) => e.kind !== "output");
        for await (const event of events) {
          if (event.kind === "done") outcome = event.outcome;
          else if (event.kind === "queued") clock.queued();
          else if (event.kind === "started") {
            const startedAt = clock.started();
            // The card shows the limit beside its clock from the start: the tool's, or the sandbox's when that is shorter.
            runLimitMs = Math.min(timeoutMs, event.timeLimitMs ?? Infinity);
            latest = {
              status: "running",
              stdout: "",
              stderr: "",
              truncated: { stdout: 0, stderr: 0 },
              timeoutMs: runLimitMs,
              startedAt,
            };
            yield latest;
          } else {
            latest = { ...event.progress, timeoutMs: runLimitMs, startedAt: clock.started() };
            yield latest;
          }
        }
      } catch (cause) {
        // The user pressed stop: end the request, do not invent a result.
        if (abortSignal?.aborted) throw cause;
        outcome = {
          ok: false,
          result:
            clock.ended === "waited"
              ? {
                  status: "busy",
                  retryAfterMs: null,
                  message: `The code runner is busy: the program waited ${Number((queueTimeoutMs / 1000).toFixed(1))} s for its turn and did not run.`,
                }
              : clock.ended === "ran"
                ? {
                    status: "timeout",
                    timeoutMs,
                    // What a streamed run printed before the tool's own limit is kept.
                    stdout: latest?.stdout ?? "",
                    stderr: latest?.stderr ?? "",
                    wallTimeMs: Math.round(performance.now() - (clock.startedAt ?? started)),
                    truncated: latest?.truncated ?? { stdout: 0, stderr: 0 },
                  }
                : describeNetworkError(cause),
        };
      } finally {
        clock.stop();
      }
      outcome ??= sandboxError("stream_ended", "The code runner's stream ended without a result.");

      // Running results and the final one say when the program started (a sandbox that does not stream cannot tell).
      const ran = outcome.result.status === "completed" || outcome.result.status === "timeout";
      const result = ran && clock.startedAtMs ? { ...outcome.result, startedAt: clock.startedAtMs } : outcome.result;
      keep(result);
      if (outcome.ok && ctx.onCost) {
        const onCost = ctx.onCost;
        safely(() =>
          onCost({
            amount: ctx.costPerExecution ?? 1,
            toolCallId,
            participantId: ctx.participantId,
            tenantId: ctx.tenantId,
            chatbotId: ctx.chatbotId,
          }),
        );
      }
      if (ctx.log) {
        const log = ctx.log;
        safely(() =>
          log({
            type: "execute_code",
            toolCallId,
            participantId: ctx.participantId,
            tenantId: ctx.tenantId,
            chatbotId: ctx.chatbotId,
            status: result.status,
            exitCode: result.status === "completed" ? result.exitCode : null,
            wallTimeMs: result.status === "completed" || result.status === "timeout" ? result.wallTimeMs : null,
            durationMs: Math.round(performance.now() - started),
            ...(result.status === "error" ? { errorCode: result.code } : {}),
            ...(ctx.logCode ? { code } : {}),
          }),
        );
      }
      yield result;
    },
    toModelOutput: ({ output }) => ({ type: "text", value: describeModelOutput(output) }),
  });
}

/**
 * The former name of `createExecuteCodeTool`.
 *
 * @deprecated Since 2026-12-02 (0.3.0); removed in 0.4.0. Use
 * `createExecuteCodeTool`, named as the kit's other factories are.
 */
export const buildExecuteCodeTool = createExecuteCodeTool;
