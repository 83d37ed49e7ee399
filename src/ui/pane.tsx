"use client";

import { useId, type ComponentProps, type CSSProperties, type ReactNode } from "react";
import { cn } from "./cn.js";
import { CopyButton } from "./copy-button.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { slotName } from "../view/slots.js";

export interface PaneProps extends Omit<ComponentProps<"section">, "children" | "title"> {
  /** `data-slot` of the pane, part of the DOM contract. */
  slot: ReturnType<typeof slotName>;
  /** The pane's name, in its header row beside the copy button. */
  name: string;
  labels: ExecuteCodeLabels;
  /** Lines in the body. Two or more past `foldedLines`, the pane starts folded, with "Show more" under it. */
  lineCount: number;
  foldedLines: number;
  /** Whether a long pane shows more than its folded height (still bounded, and scrolls). */
  open: boolean;
  /** The body holds less than the whole text (a window of very long output): the one "more" control shows all of it. */
  windowed?: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the copy button copies; no button when left out. */
  copyText?: string | (() => string);
  /** Renders the scrolling body; gets the id that the show-more control points at, and the id of the pane's name. */
  children: (bodyId: string, nameId: string) => ReactNode;
  /** Under the body and above the control, e.g. a note that the server cut the stream. */
  footer?: ReactNode;
}

/** Whether a body of `lineCount` lines folds to `foldedLines`: never to hide a single line behind a control. */
export const folds = (lineCount: number, foldedLines: number) => lineCount > foldedLines + 1;

/**
 * A labelled group for the code and for each output stream. A long body is
 * folded to a few lines, and one control under it, where the reading eye
 * arrives, shows more or less; either way the body has a bounded height and
 * scrolls.
 */
export function Pane({
  slot,
  name,
  labels,
  lineCount,
  foldedLines,
  open,
  windowed = false,
  onOpenChange,
  copyText,
  children,
  footer,
  className,
  ...props
}: PaneProps) {
  const nameId = useId();
  const bodyId = useId();
  const long = folds(lineCount, foldedLines) || windowed;
  return (
    <section
      role="group"
      data-slot={slot}
      aria-labelledby={nameId}
      data-folded={long && !open ? "" : undefined}
      data-open={long && open ? "" : undefined}
      className={cn("ecu-pane", className)}
      style={{ "--ecu-folded-lines": foldedLines } as CSSProperties}
      {...props}
    >
      {/* The copy button has a row of its own: over the code it would hide the ends of long lines. */}
      <div className="ecu-pane-header">
        <span id={nameId} className="ecu:mr-auto">
          {name}
        </span>
        {copyText !== undefined && <CopyButton text={copyText} label={labels.copy(name)} copiedLabel={labels.copied} />}
      </div>
      {children(bodyId, nameId)}
      {footer}
      {long && (
        <button
          type="button"
          className="ecu-pane-more"
          data-slot={slotName("show-more")}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => onOpenChange(!open)}
        >
          {open
            ? labels.showLess
            : windowed
              ? labels.showAll
              : labels.showMore(formatCount(lineCount - foldedLines, labels.numbers), lineCount - foldedLines)}
        </button>
      )}
    </section>
  );
}
