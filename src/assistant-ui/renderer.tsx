"use client";

import type { ToolCallMessagePartComponent, ToolCallMessagePartProps } from "@assistant-ui/react";
import { useLayoutEffect, useMemo, useRef } from "react";
import type { ExecuteCodeInput } from "../contract/index.js";
import { ExecuteCodeCard } from "../ui/execute-code-card.js";
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
}: ExecuteCodeRendererOptions = {}): ToolCallMessagePartComponent<Partial<ExecuteCodeInput>, unknown> {
  function ExecuteCodeToolRender(props: ExecuteCodeToolProps) {
    // The card's phase decides whether the prompt shows; these are only its answers.
    const answers = useApprovalAnswers(props.respondToApproval);
    return (
      <ExecuteCodeCard
        status={props.status}
        args={props.args}
        argsText={props.argsText}
        result={props.result}
        isError={props.isError}
        approval={props.approval}
        execution={execution}
        labels={labels}
        theme={theme}
        className={className}
        onApprove={answers.approve}
        onDeny={answers.deny}
      />
    );
  }
  return ExecuteCodeToolRender;
}

/** The `execute_code` renderer with English labels. */
export const ExecuteCodeToolRender = makeExecuteCodeRenderer();
