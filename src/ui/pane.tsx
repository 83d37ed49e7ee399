"use client";

import { useId, type ReactNode } from "react";
import { cn } from "./cn.js";
import { CopyButton } from "./copy-button.js";
import type { ExecuteCodeLabels } from "./labels.js";

export interface PaneProps {
  /** `data-slot` of the pane, part of the DOM contract. */
  slot: string;
  title: string;
  labels: ExecuteCodeLabels;
  /** Shows Expand / Collapse for a body that starts capped in height. */
  expandable: boolean;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  /** What the copy button copies; no button when left out. */
  copyText?: string | (() => string);
  /** Renders the body; gets the id that the expand control points at. */
  children: (bodyId: string) => ReactNode;
  className?: string;
  dataAttributes?: Record<`data-${string}`, string | boolean | undefined>;
}

/** A titled, labelled group with copy and expand controls: the code block and each output stream. */
export function Pane({
  slot,
  title,
  labels,
  expandable,
  expanded,
  onExpandedChange,
  copyText,
  children,
  className,
  dataAttributes,
}: PaneProps) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <section
      role="group"
      data-slot={slot}
      aria-labelledby={titleId}
      className={cn("ecu-pane", className)}
      {...dataAttributes}
    >
      <div className="ecu-pane-header">
        <span id={titleId} className="ecu-pane-title">
          {title}
        </span>
        {expandable && (
          <button
            type="button"
            className="ecu-text-button"
            aria-expanded={expanded}
            aria-controls={bodyId}
            onClick={() => onExpandedChange(!expanded)}
          >
            {expanded ? labels.collapse : labels.expand}
          </button>
        )}
        {copyText !== undefined && (
          <CopyButton text={copyText} label={labels.copy(title)} copiedLabel={labels.copied} />
        )}
      </div>
      {children(bodyId)}
    </section>
  );
}
