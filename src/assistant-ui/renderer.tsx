"use client";

import {
  useAui,
  useAuiState,
  type ToolCallMessagePartComponent,
  type ToolCallMessagePartProps,
} from "@assistant-ui/react";
import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import type { ExecuteCodeInput } from "../contract/index.js";
import { ExecuteCodeCard } from "../ui/execute-code-card.js";
import { clientDenialReason, useClientRun } from "./client-run.js";
import type { ExecuteCodeRendererOptions } from "./options.js";

export type ExecuteCodeToolProps = ToolCallMessagePartProps<Partial<ExecuteCodeInput>, unknown>;

/**
 * Run and Deny as callbacks that keep their identity across renders, so a
 * finished card is not re-rendered because the runtime handed over a new
 * `respondToApproval`.
 */
function useApprovalAnswers(respondToApproval: ExecuteCodeToolProps["respondToApproval"]) {
  const latest = useRef(respondToApproval);
  useLayoutEffect(() => {
    latest.current = respondToApproval;
  });
  return useMemo(
    () => ({
      approve: () => latest.current({ approved: true }),
      deny: (reason?: string) => latest.current({ approved: false, ...(reason ? { reason } : {}) }),
    }),
    [],
  );
}

const RUNNING = { type: "running" } as const;
const STOPPED = { type: "incomplete", reason: "cancelled" } as const;
const COMPLETE = { type: "complete" } as const;

/** Whether a result is live output, sent ahead of a final result that may never come. */
const isLiveOutput = (result: unknown) =>
  typeof result === "object" && result !== null && (result as { status?: unknown }).status === "running";

/**
 * The tool-call renderer: a toolkit entry's `render`, a
 * `MessagePrimitive.Parts` override, or anything else that receives
 * assistant-ui's tool-call props.
 */
export function makeExecuteCodeRenderer({
  labels,
  theme,
  className,
  execution,
  executor,
  askBeforeRunning,
}: ExecuteCodeRendererOptions = {}): ToolCallMessagePartComponent<Partial<ExecuteCodeInput>, unknown> {
  const runner = execution === "client" ? executor : undefined;
  // biome-ignore lint/correctness/noComponentHookFactories: a host makes its renderer once, at module level, from its options.
  function ExecuteCodeToolRender(props: ExecuteCodeToolProps) {
    // The card's phase decides whether the prompt shows; these are only its answers.
    const answers = useApprovalAnswers(props.respondToApproval);
    const aui = useAui();
    // A call's own status reads complete once it holds live output; the message says whether its run goes on.
    const messageRunning = useAuiState((state) => state.optional.message?.status?.type === "running");
    // A program this page runs stops here; a server run stops as the composer's Stop does (the thread's cancel).
    const stopRun = useRef<() => void>(() => undefined);
    // A client-executed call: this page runs it once its program is written and the chat awaits the result.
    const code = typeof props.args?.code === "string" ? props.args.code : null;
    const run = useClientRun({
      runner,
      toolCallId: props.toolCallId,
      code,
      awaiting: props.result === undefined && props.status.type === "requires-action",
      ask: typeof askBeforeRunning === "function" ? askBeforeRunning() : askBeforeRunning === true,
      addResult: props.addResult,
    });
    useLayoutEffect(() => {
      stopRun.current = run.running ? run.stop : () => aui.thread.cancelRun();
    });
    // One identity for the card's whole life, so Stop does not re-render it.
    const onStop = useCallback(() => stopRun.current(), []);
    // After a busy sandbox: the model's answer again, so the program runs once more.
    const onRetry = useCallback(() => aui.message.reload(), [aui]);
    // The result this page added, until the message holds it: the run has ended, whatever the round trip takes.
    const added = props.result === undefined ? run.result : null;
    const denial = runner ? clientDenialReason(props.result ?? added ?? undefined) : undefined;
    const approval = run.asking
      ? { id: `client-${props.toolCallId}` }
      : denial !== undefined
        ? { id: `client-${props.toolCallId}`, approved: false, ...(denial ? { reason: denial } : {}) }
        : props.approval;
    return (
      <ExecuteCodeCard
        status={
          run.running
            ? RUNNING
            : added
              ? COMPLETE
              : isLiveOutput(props.result) && !messageRunning
                ? STOPPED
                : props.status
        }
        args={props.args}
        argsText={props.argsText}
        result={run.output ?? props.result ?? added ?? undefined}
        isError={props.isError}
        approval={approval}
        execution={execution}
        labels={labels}
        theme={theme}
        className={className}
        onApprove={run.asking ? run.approve : answers.approve}
        onDeny={run.asking ? run.deny : answers.deny}
        onStop={onStop}
        onRetry={onRetry}
      />
    );
  }
  return ExecuteCodeToolRender;
}

/** The `execute_code` renderer with English labels. */
export const ExecuteCodeToolRender = makeExecuteCodeRenderer();
