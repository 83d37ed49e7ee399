"use client";

import { useMemo, type ReactNode } from "react";
import { ansiStateAt } from "../view/ansi-state.js";
import { windowOutput } from "../view/output-window.js";
import { AnsiText, stripAnsi } from "./ansi.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { Pane, type PaneProps } from "./pane.js";
import { useControllableOpen } from "./use-controllable.js";
import { ScrollingPre } from "./scrolling-pre.js";
import { slotName } from "../view/slots.js";

/** Output longer than this starts folded. */
const FOLDED_LINES = 12;

export interface OutputPaneProps
  extends Omit<
    PaneProps,
    "slot" | "name" | "labels" | "lineCount" | "foldedLines" | "open" | "onOpenChange" | "children"
  > {
  stream: "stdout" | "stderr";
  text: string;
  /** Characters the server cut from this stream. */
  truncatedChars?: number;
  labels: ExecuteCodeLabels;
  /** Renders a piece of the text; ANSI-coloured text by default. */
  renderText?: (text: string) => ReactNode;
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

function lineCountOf(text: string): number {
  let lines = text.endsWith("\n") ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** One output stream in its own labelled pane, with copy and one control that shows more (all of a very long output). */
export function OutputPane({
  stream,
  text,
  truncatedChars = 0,
  labels,
  renderText,
  tone = "neutral",
  live = false,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  ...props
}: OutputPaneProps) {
  const [open, setOpen] = useControllableOpen(openProp, defaultOpen, onOpenChange);
  // One control for more: opening a windowed pane shows all of it, closing it windows it again.
  const showAll = open;
  const name = stream === "stdout" ? labels.stdout : labels.stderr;
  const render = renderText ?? ((t: string) => <AnsiText text={t} />);
  const cut = useMemo(() => {
    const window = windowOutput(text);
    // The tail starts in the colours the stream had where it was cut.
    return window.kind === "cut"
      ? { ...window, tail: ansiStateAt(text, text.length - window.tail.length) + window.tail }
      : null;
  }, [text]);
  const windowed = cut !== null;
  const shown = useMemo(() => (showAll || !cut ? ({ kind: "whole", text } as const) : cut), [showAll, cut, text]);
  const lineCount = useMemo(() => lineCountOf(text), [text]);

  return (
    <Pane
      slot={slotName(stream)}
      name={name}
      labels={labels}
      lineCount={lineCount}
      foldedLines={FOLDED_LINES}
      open={open}
      windowed={windowed}
      onOpenChange={setOpen}
      copyText={() => stripAnsi(text)}
      data-tone={tone}
      footer={
        truncatedChars > 0 && (
          <p className="ecu-notice" data-slot={slotName("truncated")}>
            {labels.truncated(name, formatCount(truncatedChars, labels.numbers))}
          </p>
        )
      }
      {...props}
    >
      {(bodyId) => (
        <ScrollingPre
          id={bodyId}
          follow={live}
          followed={shown}
          measureKey={`${text.length} ${open}`}
          className="ecu-output"
          data-live={live || undefined}
        >
          {shown.kind === "whole" ? (
            render(shown.text)
          ) : (
            <>
              {render(shown.head)}
              {"\n"}
              <span className="ecu-hidden-marker" data-slot={slotName("hidden")}>
                {shown.hiddenLines > 0
                  ? labels.hiddenLines(formatCount(shown.hiddenLines, labels.numbers))
                  : labels.hiddenCharacters(formatCount(shown.hiddenChars, labels.numbers))}
              </span>
              {"\n"}
              {render(shown.tail)}
            </>
          )}
        </ScrollingPre>
      )}
    </Pane>
  );
}
