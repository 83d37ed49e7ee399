"use client";

import { lazy, Suspense, useRef, useState, type ComponentProps, type ComponentType } from "react";
import type { ApprovalReasonProps } from "./approval-reason.js";
import { cn } from "./cn.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { lazyResource } from "./lazy-resource.js";
import { slotName } from "../view/slots.js";

export interface ApprovalBarProps extends Omit<ComponentProps<"div">, "onChange"> {
  labels: ExecuteCodeLabels;
  /** May return a promise: should it reject, the prompt asks again and says the answer was not sent. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a host's handler returns nothing, or a promise the card waits for.
  onApprove: () => void | PromiseLike<unknown>;
  // biome-ignore lint/suspicious/noConfusingVoidType: a host's handler returns nothing, or a promise the card waits for.
  onDeny: (reason?: string) => void | PromiseLike<unknown>;
  /** Called after an answer, so the card can take the focus the buttons had. */
  onAnswered?: () => void;
}

const reasonField = lazyResource(() => import("./approval-reason.js"));
// Should the chunk fail to load, the prompt goes without a reason field.
const ApprovalReason = lazy(
  (): Promise<{ default: ComponentType<ApprovalReasonProps> }> =>
    reasonField.load().catch(() => ({ default: () => null })),
);

/** Starts loading the reason field, so it is there by the time a prompt shows. */
export const preloadApprovalReason = reasonField.preload;

/**
 * Run and Deny, with an optional reason for Deny. Answers once, however
 * often it is clicked: the first click disables both buttons. An answer the
 * runtime could not record re-enables them, with the reason kept.
 */
export function ApprovalBar({ labels, onApprove, onDeny, onAnswered, className, ...props }: ApprovalBarProps) {
  const [answered, setAnswered] = useState(false);
  const answeredRef = useRef(false);
  const [reason, setReason] = useState("");
  const [failed, setFailed] = useState(false);

  const answer = (approve: boolean) => {
    // A ref, not state: two clicks in one frame must not both get through.
    if (answeredRef.current) return;
    answeredRef.current = true;
    setAnswered(true);
    setFailed(false);
    const sent = approve ? onApprove() : onDeny(reason.trim() || undefined);
    onAnswered?.();
    if (sent)
      Promise.resolve(sent).catch(() => {
        answeredRef.current = false;
        setAnswered(false);
        setFailed(true);
      });
  };

  return (
    <div data-slot={slotName("approval")} className={cn("ecu-approval", className)} {...props}>
      <div className="ecu-approval-buttons">
        <button
          type="button"
          className="ecu-button"
          data-variant="primary"
          disabled={answered}
          onClick={() => answer(true)}
        >
          {labels.run}
        </button>
        <button type="button" className="ecu-button" disabled={answered} onClick={() => answer(false)}>
          {labels.deny}
        </button>
        {/* Run and Deny never wait for this chunk. */}
        <Suspense fallback={null}>
          <ApprovalReason
            labels={labels}
            reason={reason}
            onReasonChange={setReason}
            onSubmit={() => answer(false)}
            disabled={answered}
          />
        </Suspense>
      </div>
      {failed && (
        <p role="alert" data-slot={slotName("approval-error")} className="ecu-approval-error">
          {labels.answerFailed}
        </p>
      )}
    </div>
  );
}
