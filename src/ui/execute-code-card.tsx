"use client";

import { memo, useMemo } from "react";
import { ExecuteCode, type RootProps } from "./execute-code.js";

export interface ExecuteCodeCardProps extends Omit<RootProps, "children" | "asChild"> {
  /**
   * Called with Run in the awaiting-approval phase. Without both callbacks no
   * buttons are shown. A returned promise that rejects lets the person answer again.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a host's handler returns nothing, or a promise the card waits for.
  onApprove?: () => void | PromiseLike<unknown>;
  /** Called with Deny in the awaiting-approval phase, with the reason if one was given. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a host's handler returns nothing, or a promise the card waits for.
  onDeny?: (reason?: string) => void | PromiseLike<unknown>;
  /** Called with Stop while the program runs. Without it no Stop button is shown. */
  onStop?: () => void;
  /** Called with Try again when the sandbox was busy. Without it no button is shown. */
  onRetry?: () => void;
}

/**
 * The whole `execute_code` card for one tool call. Takes the call state
 * (assistant-ui's tool-call props fit as they are) and needs no runtime, so
 * plain AI SDK `useChat` apps can render it too.
 */
export const ExecuteCodeCard = memo(function ExecuteCodeCard({
  onApprove,
  onDeny,
  onStop,
  onRetry,
  ...root
}: ExecuteCodeCardProps) {
  // The parts read the view from context; keeping them the same elements lets
  // a streamed delta that the card does not show yet skip them.
  const parts = useMemo(
    () => (
      <>
        <ExecuteCode.Header>
          <ExecuteCode.Title />
          {/* One group: it wraps under a long title as a whole, so the time and the chevron never sit alone. */}
          <div className="ecu-header-end">
            <ExecuteCode.Status>
              <ExecuteCode.Exit />
            </ExecuteCode.Status>
            <ExecuteCode.Timing />
            {onStop && <ExecuteCode.Stop onStop={onStop} />}
            <ExecuteCode.Trigger />
          </div>
        </ExecuteCode.Header>
        <ExecuteCode.Content>
          <ExecuteCode.Explanation />
          <ExecuteCode.Source />
          <ExecuteCode.Message />
          {onRetry && <ExecuteCode.Retry onRetry={onRetry} />}
          {onApprove && onDeny && <ExecuteCode.Approval onApprove={onApprove} onDeny={onDeny} />}
          <ExecuteCode.Output />
          <ExecuteCode.Files />
        </ExecuteCode.Content>
      </>
    ),
    [onApprove, onDeny, onStop, onRetry],
  );
  return <ExecuteCode.Root {...root}>{parts}</ExecuteCode.Root>;
});
