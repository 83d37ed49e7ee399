"use client";

import { AnsiText, stripAnsi } from "./ansi.js";
import { formatCount } from "./format.js";
import type { OutputPaneProps } from "./output-pane.js";
import { Pane } from "./pane.js";
import { ScrollingPre } from "./scrolling-pre.js";
import { useControllableOpen } from "./use-controllable.js";
import { DEFAULT_OUTPUT_LIMITS } from "../view/output-window.js";
import { slotName } from "../view/slots.js";

/** Output longer than this starts folded. */
export const OUTPUT_FOLDED_LINES = 12;

/** Lines of a stream: a final line break ends its last line. */
export function lineCountOf(text: string): number {
  let lines = text.endsWith("\n") ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** The most of a stream shown before the output's code has loaded: as much as the full pane's window, so it paints in one short task. */
const PLAIN_MAX_CHARS = DEFAULT_OUTPUT_LIMITS.maxChars;

/** The full pane's props: those about the server's cut wait for the full pane, and never reach the DOM. */
export type PlainOutputPaneProps = OutputPaneProps;

/**
 * A stream's pane until the output's own code (its window over long text,
 * the notes on what the server cut, traceback links) has loaded, or should
 * that chunk fail: the same pane and text, its latest lines for a long one.
 */
export function PlainOutputPane({
  stream,
  text,
  labels,
  tone = "neutral",
  live = false,
  renderText,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  truncatedChars: _cut,
  cutAt: _cutAt,
  cutLines: _cutLines,
  ...props
}: PlainOutputPaneProps) {
  const [open, setOpen] = useControllableOpen(openProp, defaultOpen, onOpenChange);
  const name = stream === "stdout" ? labels.stdout : labels.stderr;
  const render = renderText ?? ((part: string) => <AnsiText text={part} />);
  // A long stream shows from a line break near its end, as a terminal shows its latest lines.
  const from = text.length > PLAIN_MAX_CHARS ? text.indexOf("\n", text.length - PLAIN_MAX_CHARS) + 1 : 0;
  return (
    <Pane
      slot={slotName(stream)}
      name={name}
      labels={labels}
      lineCount={lineCountOf(text)}
      foldedLines={OUTPUT_FOLDED_LINES}
      open={open}
      onOpenChange={setOpen}
      copyText={() => stripAnsi(text)}
      data-tone={tone}
      {...props}
    >
      {(bodyId) => (
        <ScrollingPre
          id={bodyId}
          follow={live || from > 0}
          followed={text}
          measureKey={`${text.length} ${open}`}
          className="ecu-output"
          data-live={live || undefined}
        >
          {from > 0 && (
            <span className="ecu-hidden-marker" data-slot={slotName("hidden")}>
              {labels.hiddenCharacters(formatCount(from, labels.numbers))}
              {"\n"}
            </span>
          )}
          {render(text.slice(from))}
        </ScrollingPre>
      )}
    </Pane>
  );
}
