"use client";

import { Slot } from "radix-ui";
import { useEffect, useMemo, type ComponentProps, type ReactNode } from "react";
import { cutAt } from "../contract/truncate.js";
import { pythonLines } from "../view/python-lines.js";
import { ApprovalBar, preloadApprovalReason, type ApprovalBarProps } from "./approval-bar.js";
import { cn } from "./cn.js";
import { CodeBlock, type CodeBlockProps } from "./code-block.js";
import { useExecuteCode } from "./context.js";
import type { AsChild, PartProps } from "./execute-code-root.js";
import type { OutputPaneProps } from "./output-pane.js";
import { PHASE_LOOK } from "./phase-look.js";
import { PlainOutputPane } from "./plain-output-pane.js";
import { useLazyResource, whenIdle } from "./lazy-resource.js";
import { runResultParts } from "./run-result-parts.js";
import { slotName } from "../view/slots.js";

/** Everything under the header: hidden, and not rendered, while the card is folded. */
export function Content({ asChild, className, children, ...props }: ComponentProps<"div"> & AsChild) {
  const { open, contentId } = useExecuteCode();
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      id={contentId}
      hidden={!open}
      data-slot={slotName("content")}
      data-state={open ? "open" : "closed"}
      className={cn("ecu-content", className)}
      {...props}
    >
      {open || asChild ? children : null}
    </Component>
  );
}

export type SourceProps = Omit<
  CodeBlockProps,
  "code" | "complete" | "labels" | "focusedLine" | "errorLine" | "failure"
>;

/** The program, highlighted, growing while the model writes it. */
export function Source(props: SourceProps) {
  const { view, labels, focusedLine } = useExecuteCode();
  // Code that did not run keeps its place and its lines, under a dashed frame: Stop or Deny never move what the
  // student was reading.
  const notRun = PHASE_LOOK[view.phase].notRun === true;
  return (
    <CodeBlock
      code={view.code}
      complete={view.codeComplete}
      labels={labels}
      focusedLine={focusedLine}
      errorLine={view.errorLine}
      failure={view.failure}
      data-not-run={notRun || undefined}
      {...props}
    />
  );
}

/**
 * Why a failed run failed, under its exception: the error in plain words and
 * the values at the failing line, where its sandbox said (contract/failure.ts).
 */
export function Explanation(props: ComponentProps<"div">) {
  const { view, labels, focusLine } = useExecuteCode();
  const parts = useLazyResource(runResultParts, view.failure != null);
  if (view.failure == null || !parts) return null;
  return <parts.FailureNote failure={view.failure} labels={labels} onGoToLine={focusLine} {...props} />;
}

/** The sentence that explains a phase that is not a plain result, from the phase table. */
export function Message({ asChild, className, children, ...props }: PartProps<"div">) {
  const { view, labels } = useExecuteCode();
  const content = children ?? PHASE_LOOK[view.phase].message?.(view, labels);
  if (content === undefined || content === null || content === false || content === "") return null;
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component
      data-slot={slotName("message")}
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
export function Output({ renderText, stdoutProps, stderrProps, asChild, className, ...props }: OutputProps) {
  const { view, labels, focusLine } = useExecuteCode();
  const look = PHASE_LOOK[view.phase];
  const shows = look.output && !!view.output;
  const parts = useLazyResource(runResultParts, shows);
  const programLines = useMemo(() => pythonLines(view.code).length, [view.code]);
  if (!shows || !view.output) return null;
  const { stdout, stderr, truncated } = view.output;
  const StderrText = parts?.StderrText;
  const streams = {
    stdout: {
      text: stdout,
      tone: "neutral",
      render: renderText && ((text: string) => renderText(text, "stdout")),
      folded: 0,
      props: stdoutProps,
    },
    stderr: {
      text: stderr,
      tone: look.tone === "danger" ? "danger" : "neutral",
      render: renderText
        ? (text: string) => renderText(text, "stderr")
        : StderrText &&
          ((text: string) => (
            <StderrText
              text={text}
              programLineCount={programLines}
              labels={labels}
              onGoToLine={focusLine}
              failure={view.failure}
            />
          )),
      // Only where StderrText renders the pane, which a host's own renderText replaces.
      folded: !renderText && !stderrProps?.renderText && parts ? parts.linesInLibraryFolds(stderr, view.failure) : 0,
      props: stderrProps,
    },
  } as const;
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component data-slot={slotName("output")} className={cn("ecu-output-group", className)} {...props}>
      {(["stdout", "stderr"] as const).map((stream) => {
        const { text, tone, render, folded, props: paneProps } = streams[stream];
        if (!text) return null;
        const live = look.live === true;
        const pane = {
          stream,
          text,
          truncatedChars: truncated[stream],
          cutAt: cutAt(truncated, stream, text),
          cutLines: truncated.lines?.[stream],
          labels,
          live,
          tone,
          renderText: render,
          linesFoldedByText: folded,
          ...paneProps,
        };
        const StreamPane = parts?.OutputPane ?? PlainOutputPane;
        return <StreamPane key={stream} {...pane} />;
      })}
      {/* A timed-out run's message says itself that it printed nothing. */}
      {!stdout && !stderr && !look.live && view.phase !== "cancelled" && view.phase !== "timed-out" && (
        <p data-slot={slotName("no-output")} className="ecu-no-output">
          {labels.noOutput}
        </p>
      )}
    </Component>
  );
}

export type ApprovalProps = Omit<ApprovalBarProps, "labels" | "onAnswered">;

/** Run and Deny while the card awaits approval; afterwards the card keeps the focus the buttons had. */
export function Approval(props: ApprovalProps) {
  const { view, labels, rootRef } = useExecuteCode();
  // A card that can ask for approval fetches the reason field before it asks, once the page is idle.
  useEffect(() => whenIdle(preloadApprovalReason), []);
  if (!PHASE_LOOK[view.phase].approval) return null;
  return <ApprovalBar labels={labels} onAnswered={() => rootRef.current?.focus()} {...props} />;
}
