"use client";

import { AnsiText } from "./ansi.js";
import { formatCount } from "./format.js";
import { CutMarker, OutputNotes, truncationNote } from "./output-notes.js";
import type { OutputPaneProps } from "./output-pane.js";
import { useStreamPane } from "./stream-pane.js";
import { Pane } from "./pane.js";
import { ScrollingPre } from "./scrolling-pre.js";
import { DEFAULT_OUTPUT_LIMITS } from "../view/output-window.js";
import { slotName } from "../view/slots.js";

/** The most of a stream shown before the output's code has loaded: as much as the full pane's window, so it paints in one short task. */
const PLAIN_MAX_CHARS = DEFAULT_OUTPUT_LIMITS.maxChars;

export type PlainOutputPaneProps = OutputPaneProps;

/**
 * A stream's pane until the output's own code (its window over long text,
 * the note on overwritten text, traceback links) has loaded, or should that
 * chunk fail: the same pane and text, its latest lines for a long one, and
 * what the server cut, where.
 */
export function PlainOutputPane({
  stream,
  text,
  truncatedChars = 0,
  cutAt = text.length,
  cutLines,
  labels,
  tone = "neutral",
  live = false,
  renderText,
  linesFoldedByText = 0,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  ...props
}: PlainOutputPaneProps) {
  const { name, open, pane } = useStreamPane({ stream, text, labels, tone, open: openProp, defaultOpen, onOpenChange });
  const render = renderText ?? ((part: string) => <AnsiText text={part} />);
  // A long stream shows from a line break near its end, as a terminal shows its latest lines.
  const from = text.length > PLAIN_MAX_CHARS ? text.indexOf("\n", text.length - PLAIN_MAX_CHARS) + 1 : 0;
  // Where the server cut the stream's middle, when that is in what shows.
  const seam = truncatedChars > 0 && cutAt < text.length && cutAt >= from ? cutAt : null;
  return (
    <Pane
      {...pane}
      lineCount={pane.lineCount - linesFoldedByText}
      footer={
        <OutputNotes
          note={truncationNote(name, text, truncatedChars, Math.min(cutAt, text.length), cutLines, labels)}
          labels={labels}
        />
      }
      {...props}
    >
      {(bodyId, nameId) => (
        <ScrollingPre
          id={bodyId}
          labelledBy={nameId}
          follow={live}
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
          {seam === null ? (
            render(text.slice(from))
          ) : (
            <>
              {render(text.slice(from, seam))}
              {seam > from && !text.endsWith("\n", seam) ? "\n" : null}
              <CutMarker truncatedChars={truncatedChars} cutLines={cutLines} labels={labels} />
              {"\n"}
              {render(text.slice(seam))}
            </>
          )}
        </ScrollingPre>
      )}
    </Pane>
  );
}
