"use client";

import { memo, useMemo } from "react";
import { deriveExecuteCodeView, type ExecuteCodeCallState } from "../view/index.js";
import { ExecuteCode } from "./execute-code.js";
import type { ExecuteCodeLabels } from "./labels.js";

export interface ExecuteCodeCardProps extends ExecuteCodeCallState {
  labels?: Partial<ExecuteCodeLabels>;
  theme?: "light" | "dark";
  className?: string;
  /**
   * Called with Run in the awaiting-approval phase. Without both callbacks no
   * buttons are shown. A returned promise that rejects lets the person answer again.
   */
  onApprove?: () => void | PromiseLike<unknown>;
  /** Called with Deny in the awaiting-approval phase, with the reason if one was given. */
  onDeny?: (reason?: string) => void | PromiseLike<unknown>;
}

/**
 * The whole `execute_code` card for one tool call. Takes the call state
 * (assistant-ui's tool-call props fit as they are) and needs no runtime, so
 * plain AI SDK `useChat` apps can render it too.
 */
export const ExecuteCodeCard = memo(function ExecuteCodeCard({
  status,
  args,
  argsText,
  argsComplete,
  result,
  isError,
  approval,
  execution,
  labels,
  theme,
  className,
  onApprove,
  onDeny,
}: ExecuteCodeCardProps) {
  const view = useMemo(
    () => deriveExecuteCodeView({ status, args, argsText, argsComplete, result, isError, approval, execution }),
    [status, args, argsText, argsComplete, result, isError, approval, execution],
  );
  // The parts read the view from context; keeping them the same elements lets
  // a streamed delta that the card does not show yet skip them.
  const parts = useMemo(
    () => (
      <>
        <ExecuteCode.Header>
          <ExecuteCode.Status />
          <ExecuteCode.Exit />
          <ExecuteCode.Timing />
        </ExecuteCode.Header>
        <ExecuteCode.Source />
        <ExecuteCode.Message />
        {onApprove && onDeny && <ExecuteCode.Approval onApprove={onApprove} onDeny={onDeny} />}
        <ExecuteCode.Output />
      </>
    ),
    [onApprove, onDeny],
  );
  return (
    <ExecuteCode.Root view={view} labels={labels} theme={theme} className={className}>
      {parts}
    </ExecuteCode.Root>
  );
});
