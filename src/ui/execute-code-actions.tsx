"use client";

import { ChevronDown, CircleStop } from "lucide";
import { Slot } from "radix-ui";
import type { ComponentProps, MouseEvent } from "react";
import { cn } from "./cn.js";
import { useExecuteCode } from "./context.js";
import type { AsChild } from "./execute-code-root.js";
import type { ExecuteCodePhase } from "../view/index.js";
import { Icon } from "./icon.js";
import { type ExecuteCodeSlot, slotName } from "../view/slots.js";

/** A part's click handler: the host's own first, then the part's action unless the host prevented it. */
const thenUnlessPrevented =
  (onClick: ((event: MouseEvent<HTMLButtonElement>) => void) | undefined, action: () => void) =>
  (event: MouseEvent<HTMLButtonElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) action();
  };

export interface RetryProps extends ComponentProps<"button">, AsChild {
  /** Asks again: the app regenerates the answer whose run found the sandbox busy. */
  onRetry: () => void;
}

/** A button of the card's that shows in one phase and does one thing: Retry, Stop. */
function ActionButton({
  phase,
  actionSlot,
  action,
  asChild,
  onClick,
  ...props
}: ComponentProps<"button"> &
  AsChild & { phase: ExecuteCodePhase; actionSlot: Extract<ExecuteCodeSlot, "retry" | "stop">; action: () => void }) {
  const { view } = useExecuteCode();
  if (view.phase !== phase) return null;
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      type={asChild ? undefined : "button"}
      data-slot={slotName(actionSlot)}
      onClick={thenUnlessPrevented(onClick, action)}
      {...props}
    />
  );
}

/** Try again, once the sandbox said it was busy. */
export function Retry({ className, children, onRetry, ...props }: RetryProps) {
  const { labels } = useExecuteCode();
  return (
    <ActionButton
      phase="busy"
      actionSlot="retry"
      action={onRetry}
      className={cn("ecu-button ecu-retry", className)}
      {...props}
    >
      {children ?? labels.retry}
    </ActionButton>
  );
}

export interface StopProps extends ComponentProps<"button">, AsChild {
  /** Ends the run: the app stops the chat's request (server runs) or the program in the page (browser runs). */
  onStop: () => void;
}

/**
 * Stops the program while it runs, where the student looks: the stop icon
 * of media players and chat apps with the word, named for what it stops (so
 * that it is not a second bare "Stop" beside the composer's). A touch target
 * of 44 px on a phone.
 */
export function Stop({ className, children, onStop, ...props }: StopProps) {
  const { labels } = useExecuteCode();
  return (
    <ActionButton
      phase="running"
      actionSlot="stop"
      action={onStop}
      aria-label={labels.stop}
      title={labels.stop}
      className={cn("ecu-button ecu-stop", className)}
      {...props}
    >
      {children ?? (
        <>
          <Icon node={CircleStop} aria-hidden className="ecu:size-4" />
          <span>{labels.stopShort}</span>
        </>
      )}
    </ActionButton>
  );
}

// The fold is a disclosure button and the element it shows and hides, as
// Radix's Collapsible renders them, written out here because Collapsible's
// content measures itself when it mounts: a forced layout inside the commit of
// every card, the longest part of a card's first render in a thread.

/** Folds the card down to its header and back. */
export function Trigger({ asChild, className, children, onClick, ...props }: ComponentProps<"button"> & AsChild) {
  const { labels, open, setOpen, contentId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      type={asChild ? undefined : "button"}
      data-slot={slotName("trigger")}
      data-state={open ? "open" : "closed"}
      aria-controls={contentId}
      aria-expanded={open}
      aria-label={open ? labels.collapseCard : labels.expandCard}
      className={cn("ecu-icon-button ecu-trigger", className)}
      onClick={thenUnlessPrevented(onClick, () => setOpen(!open))}
      {...props}
    >
      {children ?? <Icon node={ChevronDown} aria-hidden className="ecu:size-4" />}
    </Component>
  );
}
