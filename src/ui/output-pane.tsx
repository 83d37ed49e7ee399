"use client";

import { useMemo, useState, type ReactNode } from "react";
import { hasOverwrittenText, showCarriageReturns } from "../view/carriage-returns.js";
import { ansiStateAt } from "../view/ansi-state.js";
import { windowAroundSeam, windowOutput } from "../view/output-window.js";
import { AnsiText } from "./ansi.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { Pane, type PaneProps } from "./pane.js";
import { CutMarker, OutputNotes, truncationNote } from "./output-notes.js";
import { useStreamPane } from "./stream-pane.js";
import { ScrollingPre } from "./scrolling-pre.js";
import { slotName } from "../view/slots.js";

export interface OutputPaneProps
  extends Omit<
    PaneProps,
    "slot" | "name" | "labels" | "lineCount" | "foldedLines" | "open" | "onOpenChange" | "children"
  > {
  stream: "stdout" | "stderr";
  text: string;
  /** Characters the server cut from this stream. */
  truncatedChars?: number;
  /**
   * Where in `text` the server's cut is: it kept the start and the end, as a
   * terminal keeps the latest lines. Left out (or the text's length): cut at the end.
   */
  cutAt?: number;
  /** Line breaks in what the server cut, where it says. */
  cutLines?: number;
  labels: ExecuteCodeLabels;
  /** Renders a piece of the text; ANSI-coloured text by default. */
  renderText?: (text: string) => ReactNode;
  /** Lines `renderText` folds away itself (a traceback's library frames): not counted as more to show. */
  linesFoldedByText?: number;
  /** stderr of a failed run is drawn in the danger tone; otherwise a stream is just a stream. */
  tone?: "neutral" | "danger";
  /**
   * The program is still writing: the pane follows its newest line, until the
   * reader scrolls up, and again once they scroll back to the end. A pane
   * that is not live never scrolls on its own.
   */
  live?: boolean;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** One output stream in its own labelled pane, with copy and one control that shows more (all of a very long output). */
export function OutputPane({
  stream,
  text,
  truncatedChars = 0,
  cutAt = text.length,
  cutLines,
  labels,
  renderText,
  linesFoldedByText = 0,
  tone = "neutral",
  live = false,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  ...props
}: OutputPaneProps) {
  const { name, open, pane } = useStreamPane({ stream, text, labels, tone, open: openProp, defaultOpen, onOpenChange });
  // One control for more: opening a windowed pane shows all of it, closing it windows it again.
  const showAll = open;
  const render = renderText ?? ((t: string) => <AnsiText text={t} />);
  const seam = truncatedChars > 0 && cutAt < text.length ? cutAt : null;
  const cut = useMemo(() => {
    const window = seam === null ? windowOutput(text) : { kind: "cut" as const, ...windowAroundSeam(text, seam) };
    if (window.kind === "whole" || (seam !== null && window.hiddenChars === 0)) return null;
    // The tail starts in the colours the stream had where it was cut.
    return { ...window, tail: ansiStateAt(text, text.length - window.tail.length) + window.tail };
  }, [text, seam]);
  const windowed = cut !== null;
  const shown = useMemo(() => {
    if (!showAll && cut) return cut;
    if (seam === null) return { kind: "whole", text } as const;
    const tail = text.slice(seam);
    return {
      kind: "cut",
      head: text.slice(0, seam),
      tail: ansiStateAt(text, seam) + tail,
      hiddenLines: 0,
      hiddenChars: 0,
    } as const;
  }, [showAll, cut, text, seam]);
  // A terminal's view by default; what a carriage return overwrote is one press away (the model read it).
  const overwritten = useMemo(() => hasOverwrittenText(text), [text]);
  const [revealed, setRevealed] = useState(false);
  const renderShown = (part: string) => render(revealed && overwritten ? showCarriageReturns(part) : part);
  const note = useMemo(
    () => truncationNote(name, text, truncatedChars, seam ?? text.length, cutLines, labels),
    [truncatedChars, text, seam, cutLines, labels, name],
  );

  return (
    <Pane
      {...pane}
      lineCount={pane.lineCount - linesFoldedByText}
      windowed={windowed}
      footer={
        <OutputNotes
          note={note}
          overwritten={overwritten}
          labels={labels}
          revealControl={
            <button
              type="button"
              className="ecu-link-button"
              aria-pressed={revealed}
              onClick={() => setRevealed((now) => !now)}
            >
              {labels.showOverwritten}
            </button>
          }
        />
      }
      {...props}
    >
      {(bodyId, nameId) => (
        <ScrollingPre
          id={bodyId}
          labelledBy={nameId}
          // Live, it follows the newest line; finished, it reads from its first (useFollowEnd).
          follow={live}
          followed={shown}
          measureKey={`${text.length} ${open}`}
          className="ecu-output"
          data-live={live || undefined}
        >
          {shown.kind === "whole" ? (
            renderShown(shown.text)
          ) : (
            <>
              {renderShown(shown.head)}
              {shown.head && !shown.head.endsWith("\n") ? "\n" : null}
              {shown.hiddenChars > 0 && (
                <span className="ecu-hidden-marker" data-slot={slotName("hidden")}>
                  {shown.hiddenLines > 0
                    ? labels.hiddenLines(formatCount(shown.hiddenLines, labels.numbers))
                    : labels.hiddenCharacters(formatCount(shown.hiddenChars, labels.numbers))}
                </span>
              )}
              {seam !== null && <CutMarker truncatedChars={truncatedChars} cutLines={cutLines} labels={labels} />}
              {"\n"}
              {renderShown(shown.tail)}
            </>
          )}
        </ScrollingPre>
      )}
    </Pane>
  );
}
