"use client";

import { Slot } from "radix-ui";
import { useEffect, useMemo, useRef, useState, type ReactNode, type ComponentPropsWithoutRef } from "react";
import { UNRECOGNISED_RESULT, type ExecuteCodeView } from "../view/index.js";
import { ansiParser } from "./ansi-parser.js";
import { cn } from "./cn.js";
import { ApprovalBar, preloadApprovalReason, type ApprovalBarProps } from "./approval-bar.js";
import { CodeBlock } from "./code-block.js";
import { ExecuteCodeContext, useExecuteCode } from "./context.js";
import { formatCount, formatDuration } from "./format.js";
import { resolveLabels, type ExecuteCodeLabels } from "./labels.js";
import { OutputPane } from "./output-pane.js";
import { PHASE_LOOK } from "./phase-look.js";
import { StderrText } from "./stderr-text.js";
import { useElapsed } from "./use-clock.js";
import { useStreamingView } from "./use-streaming-view.js";

export interface RootProps extends ComponentPropsWithoutRef<"div"> {
  view: ExecuteCodeView;
  labels?: Partial<ExecuteCodeLabels>;
  /** Forces a colour scheme; by default the card follows a `.dark` or `[data-theme="dark"]` ancestor. */
  theme?: "light" | "dark";
  asChild?: boolean;
}

function Root({ view: latest, labels, theme, asChild, className, children, ...props }: RootProps) {
  const view = useStreamingView(latest);
  // Output comes later; its parser should be there by then.
  useEffect(ansiParser.preload, []);
  const resolved = useMemo(() => resolveLabels(labels), [labels]);
  const [focusedLine, focusLine] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const context = useMemo(
    () => ({ view, labels: resolved, focusedLine, focusLine, rootRef }),
    [view, resolved, focusedLine],
  );
  const Component = asChild ? Slot.Root : "div";
  return (
    <ExecuteCodeContext.Provider value={context}>
      <Component
        ref={rootRef}
        tabIndex={-1}
        data-slot="execute-code"
        data-phase={view.phase}
        data-theme={theme}
        className={cn("ecu-card", className)}
        {...props}
      >
        {children}
      </Component>
    </ExecuteCodeContext.Provider>
  );
}

function Header({ className, children, ...props }: ComponentPropsWithoutRef<"div">) {
  const { labels } = useExecuteCode();
  return (
    <div data-slot="execute-code-header" className={cn("ecu-header", className)} {...props}>
      <span className="ecu-title">{labels.title}</span>
      {children}
    </div>
  );
}

/** The phase in words, in a polite live region so that changes are announced. */
function Status({ className, ...props }: ComponentPropsWithoutRef<"div">) {
  const { view, labels } = useExecuteCode();
  const look = PHASE_LOOK[view.phase];
  const Icon = look.icon;
  return (
    <div
      role="status"
      data-slot="execute-code-status"
      data-tone={look.tone}
      className={cn("ecu-status", className)}
      {...props}
    >
      <Icon aria-hidden className={cn("ecu-status-icon", look.spins && "ecu-spin")} />
      <span>{labels.phase[view.phase]}</span>
    </div>
  );
}

/** Elapsed time while running, wall time when done. Kept out of the live region so it is not read every second. */
function Timing({ className, ...props }: ComponentPropsWithoutRef<"span">) {
  const { view, labels } = useExecuteCode();
  const running = view.phase === "running";
  const elapsed = useElapsed(running);
  let text: string | null = null;
  if (running) text = labels.elapsed(`${formatCount(Math.floor(elapsed / 1000), labels.numbers)} s`);
  else if (view.wallTimeMs !== null) text = labels.wallTime(formatDuration(view.wallTimeMs, labels.numbers));
  if (!text) return null;
  return (
    <span data-slot="execute-code-timing" className={cn("ecu-timing", className)} {...props}>
      {text}
    </span>
  );
}

/** Exit code badge: green for 0, red otherwise, the signal's name when one ended the program. */
function Exit({ className, ...props }: ComponentPropsWithoutRef<"span">) {
  const { view, labels } = useExecuteCode();
  if (!view.exit) return null;
  const { code, signal } = view.exit;
  const text = signal
    ? labels.signal(signal)
    : code === null
      ? labels.exitUnknown
      : labels.exitCode(String(code));
  return (
    <span
      data-slot="execute-code-exit"
      data-exit-code={code ?? undefined}
      data-signal={signal ?? undefined}
      data-tone={code === 0 && !signal ? "success" : code === null && !signal ? "muted" : "danger"}
      className={cn("ecu-badge", className)}
      {...props}
    >
      {text}
    </span>
  );
}

function Source({ className }: { className?: string }) {
  const { view, labels, focusedLine } = useExecuteCode();
  return (
    <CodeBlock
      code={view.code}
      complete={view.codeComplete}
      labels={labels}
      focusedLine={focusedLine}
      className={className}
    />
  );
}

function BusyCountdown({ retryAfterMs }: { retryAfterMs: number }) {
  const { labels } = useExecuteCode();
  const left = Math.max(0, retryAfterMs - useElapsed(true));
  const seconds = Math.ceil(left / 1000);
  return <>{seconds > 0 ? labels.busy(formatCount(seconds, labels.numbers)) : labels.busyNow}</>;
}

/** The sentence that explains a phase that is not a plain result. */
function Message({ className, ...props }: ComponentPropsWithoutRef<"div">) {
  const { view, labels } = useExecuteCode();
  const unrecognised = view.error?.code === UNRECOGNISED_RESULT;
  let body: ReactNode = null;
  switch (view.phase) {
    case "awaiting-approval":
      body = (
        <>
          <strong className="ecu-approval-question">{labels.approvalQuestion}</strong> {labels.awaitingApproval}
        </>
      );
      break;
    case "awaiting-client":
      body = labels.awaitingClient;
      break;
    case "timed-out":
      body = labels.timedOut(view.timeoutMs === null ? null : formatDuration(view.timeoutMs, labels.numbers));
      break;
    case "busy":
      body =
        view.retryAfterMs === null ? labels.busy(null) : <BusyCountdown retryAfterMs={view.retryAfterMs} />;
      break;
    case "denied":
      body = view.denial?.expired ? (
        labels.expired
      ) : (
        <>
          {labels.denied}
          {view.denial?.reason && <> {labels.deniedReason(view.denial.reason)}</>}
        </>
      );
      break;
    case "cancelled":
      body = view.cancelReason === "no-result" ? labels.cancelledNoResult : labels.cancelled;
      break;
    case "error":
      body = unrecognised ? (
        <>
          {labels.unrecognised}
          <pre className="ecu-raw" data-slot="execute-code-raw" tabIndex={0}>
            {stringifyRaw(view.error?.raw)}
          </pre>
        </>
      ) : (
        <>
          {labels.error}
          {view.error?.message && <span className="ecu-error-detail"> {view.error.message}</span>}
        </>
      );
      break;
    default:
      return null;
  }
  return (
    <div
      data-slot="execute-code-message"
      data-kind={unrecognised ? "unrecognised" : view.phase}
      className={cn("ecu-message", className)}
      {...props}
    >
      {body}
    </div>
  );
}

function stringifyRaw(raw: unknown): string {
  if (typeof raw === "string") return raw;
  try {
    return JSON.stringify(raw, null, 2) ?? String(raw);
  } catch {
    return String(raw);
  }
}

/** stdout and stderr, each in its own labelled pane; nothing until the program has run. */
function Output({ className }: { className?: string }) {
  const { view, labels, focusLine } = useExecuteCode();
  const programLines = useMemo(() => view.code.split("\n").length, [view.code]);
  if (!view.output) return null;
  const { stdout, stderr, truncated } = view.output;
  return (
    <div data-slot="execute-code-output" className={cn("ecu-output-group", className)}>
      <OutputPane stream="stdout" text={stdout} truncatedChars={truncated.stdout} labels={labels} />
      <OutputPane
        stream="stderr"
        text={stderr}
        truncatedChars={truncated.stderr}
        labels={labels}
        renderText={(text) => (
          <StderrText text={text} programLineCount={programLines} labels={labels} onGoToLine={focusLine} />
        )}
      />
    </div>
  );
}

export type ApprovalProps = Omit<ApprovalBarProps, "labels" | "onAnswered">;

/** Run and Deny while the card awaits approval; afterwards the card keeps the focus the buttons had. */
function Approval(props: ApprovalProps) {
  const { view, labels, rootRef } = useExecuteCode();
  // A card that can ask for approval fetches the reason field before it asks.
  useEffect(preloadApprovalReason, []);
  if (view.phase !== "awaiting-approval") return null;
  return <ApprovalBar labels={labels} onAnswered={() => rootRef.current?.focus()} {...props} />;
}

/**
 * Compound parts of the card, for hosts that want their own layout:
 * `<ExecuteCode.Root view={…}><ExecuteCode.Header>…</ExecuteCode.Header>…</ExecuteCode.Root>`.
 */
export const ExecuteCode = { Root, Header, Status, Timing, Exit, Source, Message, Output, Approval };
