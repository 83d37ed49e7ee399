"use client";

import { Collapsible } from "radix-ui";
import { useId } from "react";
import type { ExecuteCodeLabels } from "./labels.js";

export interface ApprovalReasonProps {
  labels: ExecuteCodeLabels;
  reason: string;
  onReasonChange: (reason: string) => void;
  /** Enter in the field denies with the reason. */
  onSubmit: () => void;
  disabled: boolean;
}

/** "Add a reason" and its field, folded away until asked for. Loaded with the approval prompt, not with every card. */
export default function ApprovalReason({ labels, reason, onReasonChange, onSubmit, disabled }: ApprovalReasonProps) {
  const reasonId = useId();
  return (
    // No box of its own: the trigger sits beside Run and Deny, the field on a row of its own below.
    <Collapsible.Root className="ecu:contents">
      <Collapsible.Trigger className="ecu-link-button ecu-reason-trigger" disabled={disabled}>
        {labels.addReason}
      </Collapsible.Trigger>
      <Collapsible.Content className="ecu:basis-full">
        {/* Seen, not only spoken: a placeholder goes once the student types. */}
        <label htmlFor={reasonId} className="ecu-reason-label">
          {labels.denyReason}
        </label>
        {/* Mounted when the field opens, so it takes the focus then. */}
        <input
          id={reasonId}
          // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked for it.
          autoFocus
          className="ecu-input"
          value={reason}
          disabled={disabled}
          onChange={(event) => onReasonChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") onSubmit();
          }}
        />
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
