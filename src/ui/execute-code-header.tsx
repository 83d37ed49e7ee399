"use client";

import { Slot } from "radix-ui";
import { cn } from "./cn.js";
import { useExecuteCode } from "./context.js";
import type { PartProps } from "./execute-code-root.js";
import { formatCount, formatDuration } from "./format.js";
import { Icon } from "./icon.js";
import { PHASE_LOOK } from "./phase-look.js";
import { useElapsed } from "./use-elapsed.js";
import { revealInvisible, VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";
import type { ExecuteCodeView } from "../view/index.js";
import type { ExecuteCodeLabels } from "./labels.js";

/**
 * The sandbox limit a failed run hit, where its failure's explanation says
 * one (the card's first words then say why). Only that field is read: the
 * failure's full check stays out of the card's first load.
 */
function limitThatStopped(view: ExecuteCodeView): keyof ExecuteCodeLabels["stoppedAtLimit"] | null {
  if (view.phase !== "failed") return null;
  const kind = explanationKind(view);
  return kind === "memory" || kind === "sandbox-full" ? kind : null;
}

const explanationKind = (view: ExecuteCodeView): unknown =>
  (view.failure as { explanation?: { kind?: unknown } | null } | null)?.explanation?.kind;

/**
 * The card's header: its children on one row, and under them a failed run's
 * exception (`ErrorSummary`), so the error leads the card even when folded.
 */
export function Header({ asChild, className, children, ...props }: PartProps<"div">) {
  if (asChild) {
    return (
      <Slot.Root data-slot={slotName("header")} className={cn("ecu-header", className)} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <div data-slot={slotName("header")} className={cn("ecu-header", className)} {...props}>
      <div className="ecu-header-row">{children}</div>
      <ErrorSummary />
    </div>
  );
}

/**
 * What the program is about (the model's title for it, or its first
 * comment), else the tool's name ("Python"); with invisible characters
 * marked as the code pane marks them.
 */
export function Title({ asChild, className, children, ...props }: PartProps<"span">) {
  const { view, labels, titleId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "span";
  const text = view.title ?? labels.title;
  return (
    <Component id={titleId} data-slot={slotName("title")} className={cn("ecu-title", className)} {...props}>
      {children ?? (view.title === null ? text : revealInvisible(text, { code: true }))}
    </Component>
  );
}

/** A failed run's exception ("ZeroDivisionError: division by zero"), the line a traceback ends with; nothing for other phases. */
export function ErrorSummary({ asChild, className, ...props }: PartProps<"p">) {
  const { view, labels } = useExecuteCode();
  if (view.phase !== "failed" || !view.exception) return null;
  const Component = asChild ? Slot.Root : "p";
  // No internet is the sandbox's doing, said in plain words below: the exception's name alone leads, and its
  // system message ("[Errno -3] Temporary failure in name resolution") stays in the traceback.
  const exception = explanationKind(view) === "no-internet" ? view.exception.split(": ")[0]! : view.exception;
  return (
    <Component data-slot={slotName("error")} className={cn("ecu-error", className)} {...props}>
      <span className="ecu-visually-hidden">{labels.raised} </span>
      <code>
        <VisibleText text={exception} />
      </code>
    </Component>
  );
}

/**
 * The phase in words with its icon, in a polite live region so that changes
 * are announced. Children (the exit code, by default) follow the words.
 */
export function Status({ asChild, className, children, ...props }: PartProps<"div">) {
  const { view, labels, phaseId } = useExecuteCode();
  const { phase, exit } = view;
  const look = PHASE_LOOK[phase];
  const limit = limitThatStopped(view);
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      role="status"
      data-slot={slotName("status")}
      data-tone={look.tone}
      className={cn("ecu-status", className)}
      {...props}
    >
      <Icon node={look.icon} aria-hidden className={cn("ecu-status-icon", look.spins && "ecu-spin")} />
      <span id={phaseId} className="ecu-status-word">
        {phase === "running" && view.starting
          ? labels.starting
          : limit
            ? labels.stoppedAtLimit[limit]
            : // A failure no exception explains (`sys.exit(3)`): the code it ended with says it.
              phase === "failed" && !view.exception && exit?.signal === null && exit.code !== null
              ? labels.exited(exit.code)
              : labels.phase[phase]}
      </span>
      {children}
    </Component>
  );
}

/**
 * How the program ended: its exit code, or the signal that killed it. Kept
 * in the DOM for tests; the stylesheet hides it where the status says it
 * already (exit 0 when finished, 1 under the exception, any code in "Exit code 3").
 */
export function Exit({ asChild, className, ...props }: PartProps<"span">) {
  const { view, labels } = useExecuteCode();
  if (!view.exit) return null;
  const { code, signal } = view.exit;
  const text = signal ? labels.signal(signal) : code === null ? labels.exitUnknown : labels.exitCode(String(code));
  const Component = asChild ? Slot.Root : "span";
  return (
    <Component
      data-slot={slotName("exit")}
      data-exit-code={code ?? undefined}
      data-signal={signal ?? undefined}
      data-limit={limitThatStopped(view) ?? undefined}
      className={cn("ecu-exit", className)}
      title={text}
      {...props}
    >
      <VisibleText text={text} />
    </Component>
  );
}

/**
 * Time since the program started while it runs (from the start its result
 * says, so a reload shows the same; else from when the card mounted), the
 * run's own time when done; nothing while Python is still loading, which
 * does not count. Kept out of the live region so it is not read every second.
 */
export function Timing({ asChild, className, ...props }: PartProps<"span">) {
  const { view, labels } = useExecuteCode();
  const running = view.phase === "running" && !view.starting;
  const elapsed = useElapsed(running, view.startedAt);
  let text: string | null = null;
  let spoken = "";
  if (running) {
    // A clock ahead of the runner's does not show a program past its limit: the limit's result says when it is.
    const shown = view.timeoutMs === null ? elapsed : Math.min(elapsed, view.timeoutMs);
    const seconds = `${formatCount(Math.floor(shown / 1000), labels.numbers)} s`;
    const limit =
      view.timeoutMs === null ? null : `${formatCount(Math.round(view.timeoutMs / 1000), labels.numbers)} s`;
    text = limit === null ? labels.elapsed(seconds) : labels.elapsedOfLimit(seconds, limit);
    spoken = labels.spokenElapsed(seconds, limit);
  } else if (view.wallTimeMs !== null) {
    const duration = formatDuration(view.wallTimeMs, labels.numbers);
    text = labels.wallTime(duration);
    spoken = labels.spokenWallTime(duration);
  }
  if (!text) return null;
  const Component = asChild ? Slot.Root : "span";
  return (
    // "3 s / 10 s" says little read aloud: a screen reader gets the sentence.
    <Component
      role="timer"
      aria-label={spoken}
      data-slot={slotName("timing")}
      className={cn("ecu-timing", className)}
      {...props}
    >
      <VisibleText text={text} />
    </Component>
  );
}
