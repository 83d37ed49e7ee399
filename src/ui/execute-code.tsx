"use client";

import { ChevronDown, CircleStop } from "lucide";
import { Slot } from "radix-ui";
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type MouseEvent,
  type ReactNode,
} from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import { deriveExecuteCodeView, type ExecuteCodeCallState, type ExecuteCodeView } from "../view/index.js";
import { ansiParser } from "./ansi-parser.js";
import { ApprovalBar, preloadApprovalReason, type ApprovalBarProps } from "./approval-bar.js";
import { cn } from "./cn.js";
import { CodeBlock, type CodeBlockProps } from "./code-block.js";
import { ExecuteCodeContext, useExecuteCode } from "./context.js";
import { formatCount, formatDuration } from "./format.js";
import { Icon } from "./icon.js";
import { resolveLabels, type ExecuteCodeLabels } from "./labels.js";
import { OutputPane, type OutputPaneProps } from "./output-pane.js";
import { PHASE_LOOK } from "./phase-look.js";
import { defaultFileUrl, Files } from "./run-files.js";
import { StderrText } from "./stderr-text.js";
import { useElapsed } from "./use-clock.js";
import { useControllableOpen } from "./use-controllable.js";
import { useStreamingView } from "./use-streaming-view.js";

interface AsChild {
  /** Render the part's own element as its only child (Radix's `Slot`). */
  asChild?: boolean;
}

export interface RootProps extends ExecuteCodeCallState, AsChild, ComponentPropsWithoutRef<"div"> {
  /** A view already derived with `deriveExecuteCodeView`; by default the card derives it from the call state. */
  view?: ExecuteCodeView;
  labels?: Partial<ExecuteCodeLabels>;
  /** Forces a colour scheme; by default the card follows the host's (`.dark`, `[data-theme]`, `color-scheme`). */
  theme?: "light" | "dark";
  /** Where the app serves a run's figures and files; default `/api/files/{sessionId}/{fileId}` (the harness's route). */
  fileUrl?: (file: ExecuteCodeRunFile) => string;
  /** Whether the card shows its body or only its header (controlled); with `defaultOpen` it keeps its own state. */
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

function Root({
  view: given,
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
  fileUrl = defaultFileUrl,
  open: openProp,
  defaultOpen = true,
  onOpenChange,
  asChild,
  className,
  children,
  ...props
}: RootProps) {
  const derived = useMemo(
    () =>
      given ?? deriveExecuteCodeView({ status, args, argsText, argsComplete, result, isError, approval, execution }),
    [given, status, args, argsText, argsComplete, result, isError, approval, execution],
  );
  const view = useStreamingView(derived);
  // Output comes later; its parser should be there by then.
  useEffect(ansiParser.preload, []);
  const resolved = useMemo(() => resolveLabels(labels), [labels]);
  const [open, setOpen] = useControllableOpen(openProp, defaultOpen, onOpenChange);
  const [focusedLine, setFocusedLine] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const contentId = useId();
  const titleId = useId();
  const phaseId = useId();
  const context = useMemo(
    () => ({
      view,
      labels: resolved,
      open,
      setOpen,
      contentId,
      titleId,
      phaseId,
      focusedLine,
      // A traceback link also opens a folded card.
      focusLine: (line: number | null) => {
        setFocusedLine(line);
        if (line !== null) setOpen(true);
      },
      rootRef,
      fileUrl,
    }),
    [view, resolved, open, focusedLine, setOpen, contentId, titleId, phaseId, fileUrl],
  );
  const look = PHASE_LOOK[view.phase];
  const Component = asChild ? Slot.Root : "div";
  return (
    <ExecuteCodeContext.Provider value={context}>
      <Component
        ref={rootRef}
        tabIndex={-1}
        // Named by its title and phase ("Primes below 50 Failed"), so a screen reader can tell one card from the next.
        role="group"
        aria-labelledby={`${titleId} ${phaseId}`}
        data-slot="execute-code"
        data-state={open ? "open" : "closed"}
        data-phase={view.phase}
        data-tone={look.tone}
        data-theme={theme}
        className={cn("ecu-card", className)}
        {...props}
      >
        {children}
      </Component>
    </ExecuteCodeContext.Provider>
  );
}

type PartProps<E extends "div" | "span" | "p"> = ComponentPropsWithoutRef<E> & AsChild;

/**
 * The card's header: its children on one row, and under them a failed run's
 * exception (`ErrorSummary`), so the error leads the card even when folded.
 */
function Header({ asChild, className, children, ...props }: PartProps<"div">) {
  if (asChild) {
    return (
      <Slot.Root data-slot="execute-code-header" className={cn("ecu-header", className)} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <div data-slot="execute-code-header" className={cn("ecu-header", className)} {...props}>
      <div className="ecu-header-row">{children}</div>
      <ErrorSummary />
    </div>
  );
}

/** What the program is about (its first comment or first line), or the tool's name ("Python") before there is code. */
function Title({ asChild, className, children, ...props }: PartProps<"span">) {
  const { view, labels, titleId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "span";
  const text = view.title ?? labels.title;
  return (
    <Component
      id={titleId}
      data-slot="execute-code-title"
      className={cn("ecu-title", className)}
      title={children === undefined ? text : undefined}
      {...props}
    >
      {children ?? text}
    </Component>
  );
}

/** A failed run's exception ("ZeroDivisionError: division by zero"), the line a traceback ends with; nothing for other phases. */
function ErrorSummary({ asChild, className, ...props }: PartProps<"p">) {
  const { view, labels } = useExecuteCode();
  if (view.phase !== "failed" || !view.exception) return null;
  const Component = asChild ? Slot.Root : "p";
  return (
    <Component data-slot="execute-code-error" className={cn("ecu-error", className)} title={view.exception} {...props}>
      <span className="ecu-visually-hidden">{labels.raised} </span>
      <code>{view.exception}</code>
    </Component>
  );
}

/**
 * The phase in words with its icon, in a polite live region so that changes
 * are announced. Children (the exit code, by default) follow the words.
 */
function Status({ asChild, className, children, ...props }: PartProps<"div">) {
  const { view, labels, phaseId } = useExecuteCode();
  const look = PHASE_LOOK[view.phase];
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      role="status"
      data-slot="execute-code-status"
      data-tone={look.tone}
      className={cn("ecu-status", className)}
      {...props}
    >
      <Icon node={look.icon} aria-hidden className={cn("ecu-status-icon", look.spins && "ecu-spin")} />
      <span id={phaseId} className="ecu-status-word">
        {labels.phase[view.phase]}
      </span>
      {children}
    </Component>
  );
}

/** How the program ended: its exit code, or the signal that killed it. */
function Exit({ asChild, className, ...props }: PartProps<"span">) {
  const { view, labels } = useExecuteCode();
  if (!view.exit) return null;
  const { code, signal } = view.exit;
  const text = signal ? labels.signal(signal) : code === null ? labels.exitUnknown : labels.exitCode(String(code));
  const Component = asChild ? Slot.Root : "span";
  return (
    <Component
      data-slot="execute-code-exit"
      data-exit-code={code ?? undefined}
      data-signal={signal ?? undefined}
      className={cn("ecu-exit", className)}
      title={text}
      {...props}
    >
      {text}
    </Component>
  );
}

/** Time since the run started while it runs, the run's own time when done. Kept out of the live region so it is not read every second. */
function Timing({ asChild, className, ...props }: PartProps<"span">) {
  const { view, labels } = useExecuteCode();
  const running = view.phase === "running";
  const elapsed = useElapsed(running);
  let text: string | null = null;
  let spoken = "";
  if (running) {
    const seconds = `${formatCount(Math.floor(elapsed / 1000), labels.numbers)} s`;
    const limit = view.timeoutMs === null ? null : `${formatCount(Math.round(view.timeoutMs / 1000), labels.numbers)} s`;
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
    <Component role="timer" aria-label={spoken} data-slot="execute-code-timing" className={cn("ecu-timing", className)} {...props}>
      {text}
    </Component>
  );
}

/** A part's click handler: the host's own first, then the part's action unless the host prevented it. */
const thenUnlessPrevented =
  (onClick: ((event: MouseEvent<HTMLButtonElement>) => void) | undefined, action: () => void) => (event: MouseEvent<HTMLButtonElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) action();
  };

export interface RetryProps extends ComponentPropsWithoutRef<"button">, AsChild {
  /** Asks again: the app regenerates the answer whose run found the sandbox busy. */
  onRetry: () => void;
}

/** Try again, once the sandbox said it was busy. */
function Retry({ asChild, className, children, onRetry, onClick, ...props }: RetryProps) {
  const { view, labels } = useExecuteCode();
  if (view.phase !== "busy") return null;
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      type={asChild ? undefined : "button"}
      data-slot="execute-code-retry"
      className={cn("ecu-button ecu-retry", className)}
      onClick={thenUnlessPrevented(onClick, onRetry)}
      {...props}
    >
      {children ?? labels.retry}
    </Component>
  );
}

export interface StopProps extends ComponentPropsWithoutRef<"button">, AsChild {
  /** Ends the run: the app stops the chat's request (server runs) or the program in the page (browser runs). */
  onStop: () => void;
}

/**
 * Stops the program while it runs, where the student looks: the stop icon
 * of media players and chat apps, named for what it does (so that it is not
 * a second "Stop" beside the composer's).
 */
function Stop({ asChild, className, children, onStop, onClick, ...props }: StopProps) {
  const { view, labels } = useExecuteCode();
  if (view.phase !== "running") return null;
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      type={asChild ? undefined : "button"}
      data-slot="execute-code-stop"
      aria-label={labels.stop}
      title={labels.stop}
      className={cn("ecu-icon-button ecu-stop", className)}
      onClick={thenUnlessPrevented(onClick, onStop)}
      {...props}
    >
      {children ?? <Icon node={CircleStop} aria-hidden className="ecu:size-4" />}
    </Component>
  );
}

// The fold is a disclosure button and the element it shows and hides, as
// Radix's Collapsible renders them, written out here because Collapsible's
// content measures itself when it mounts: a forced layout inside the commit of
// every card, the longest part of a card's first render in a thread.

/** Folds the card down to its header and back. */
function Trigger({ asChild, className, children, onClick, ...props }: ComponentPropsWithoutRef<"button"> & AsChild) {
  const { labels, open, setOpen, contentId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      type={asChild ? undefined : "button"}
      data-slot="execute-code-trigger"
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

/** Everything under the header: hidden, and not rendered, while the card is folded. */
function Content({ asChild, className, children, ...props }: ComponentPropsWithoutRef<"div"> & AsChild) {
  const { open, contentId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      id={contentId}
      hidden={!open}
      data-slot="execute-code-content"
      data-state={open ? "open" : "closed"}
      className={cn("ecu-content", className)}
      {...props}
    >
      {open || asChild ? children : null}
    </Component>
  );
}

/** Lines of a program that did not run shown before "Show more". */
const NOT_RUN_FOLDED_LINES = 3;

export type SourceProps = Omit<CodeBlockProps, "code" | "complete" | "labels" | "focusedLine" | "errorLine">;

/** The program, highlighted, growing while the model writes it. */
function Source(props: SourceProps) {
  const { view, labels, focusedLine } = useExecuteCode();
  // Code that did not run is there to be looked up, not read first.
  const notRun = PHASE_LOOK[view.phase].foldCode === true;
  return (
    <CodeBlock
      code={view.code}
      complete={view.codeComplete}
      labels={labels}
      focusedLine={focusedLine}
      errorLine={view.errorLine}
      foldedLines={notRun ? NOT_RUN_FOLDED_LINES : undefined}
      data-not-run={notRun || undefined}
      {...props}
    />
  );
}

/** The sentence that explains a phase that is not a plain result, from the phase table. */
function Message({ asChild, className, children, ...props }: PartProps<"div">) {
  const { view, labels } = useExecuteCode();
  const content = children ?? PHASE_LOOK[view.phase].message?.(view, labels);
  if (content === undefined || content === null || content === false || content === "") return null;
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      data-slot="execute-code-message"
      data-kind={view.phase}
      className={cn("ecu-message", className)}
      {...props}
    >
      {content}
    </Component>
  );
}

export interface OutputProps extends PartProps<"div"> {
  /** Renders a stream's text; by default ANSI colours, and traceback frames on stderr linked to the code. */
  renderText?: (text: string, stream: "stdout" | "stderr") => ReactNode;
  /** Passed to each stream's pane (controlled or default show-more state, class names). */
  stdoutProps?: Partial<OutputPaneProps>;
  stderrProps?: Partial<OutputPaneProps>;
}

/**
 * stdout and stderr, each in its own labelled pane when it has text; one
 * line when the program printed nothing. Nothing before the program has
 * run; while it runs, what it has printed so far, as it arrives.
 */
function Output({ renderText, stdoutProps, stderrProps, asChild, className, ...props }: OutputProps) {
  const { view, labels, focusLine } = useExecuteCode();
  const look = PHASE_LOOK[view.phase];
  const programLines = useMemo(() => view.code.split("\n").length, [view.code]);
  if (!look.output || !view.output) return null;
  const { stdout, stderr, truncated } = view.output;
  const streams = {
    stdout: { text: stdout, tone: "neutral", render: renderText && ((text: string) => renderText(text, "stdout")), props: stdoutProps },
    stderr: {
      text: stderr,
      tone: look.tone === "danger" ? "danger" : "neutral",
      render: renderText
        ? (text: string) => renderText(text, "stderr")
        : (text: string) => <StderrText text={text} programLineCount={programLines} labels={labels} onGoToLine={focusLine} />,
      props: stderrProps,
    },
  } as const;
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component data-slot="execute-code-output" className={cn("ecu-output-group", className)} {...props}>
      {(["stdout", "stderr"] as const).map((stream) => {
        const { text, tone, render, props: paneProps } = streams[stream];
        if (!text) return null;
        return (
          <OutputPane
            key={stream}
            stream={stream}
            text={text}
            truncatedChars={truncated[stream]}
            labels={labels}
            live={look.live}
            tone={tone}
            renderText={render}
            {...paneProps}
          />
        );
      })}
      {!stdout && !stderr && !look.live && view.phase !== "cancelled" && (
        <p data-slot="execute-code-no-output" className="ecu-no-output">
          {labels.noOutput}
        </p>
      )}
    </Component>
  );
}

export type ApprovalProps = Omit<ApprovalBarProps, "labels" | "onAnswered">;

/** Run and Deny while the card awaits approval; afterwards the card keeps the focus the buttons had. */
function Approval(props: ApprovalProps) {
  const { view, labels, rootRef } = useExecuteCode();
  // A card that can ask for approval fetches the reason field before it asks.
  useEffect(preloadApprovalReason, []);
  if (!PHASE_LOOK[view.phase].approval) return null;
  return <ApprovalBar labels={labels} onAnswered={() => rootRef.current?.focus()} {...props} />;
}

/**
 * Compound parts of the card, for hosts that want their own layout:
 * `<ExecuteCode.Root {...toolCallProps}><ExecuteCode.Header>…</ExecuteCode.Header><ExecuteCode.Content>…</ExecuteCode.Content></ExecuteCode.Root>`.
 */
export const ExecuteCode = {
  Root,
  Header,
  Title,
  Status,
  Exit,
  Timing,
  Stop,
  Retry,
  Trigger,
  Error: ErrorSummary,
  Content,
  Source,
  Message,
  Approval,
  Output,
  Files,
};
