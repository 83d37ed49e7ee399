"use client";

// The notes under an output stream: what the server cut (and where), and text
// that later output overwrote. The plain pane that stands in until the full
// pane's chunk loads (or if it fails) shows the cut too, so that no pane
// passes a part of a stream off as the whole.

import type { ReactNode } from "react";
import { countLineBreaks } from "../contract/truncate.js";
import { slotName } from "../view/slots.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";

/** The sentence on what the server cut from a stream (null: nothing cut); `at` is where in `text` the cut is. */
export function truncationNote(
  name: string,
  text: string,
  truncatedChars: number,
  at: number,
  cutLines: number | undefined,
  labels: ExecuteCodeLabels,
): string | null {
  if (truncatedChars <= 0) return null;
  // The start's whole lines; the end's lines, its last one unfinished or not.
  const first = countLineBreaks(text, 0, at);
  const tailBreaks = countLineBreaks(text, at);
  const last = tailBreaks + (at < text.length && !text.endsWith("\n") ? 1 : 0);
  const total = first + tailBreaks + (cutLines ?? 0) + (text.endsWith("\n") ? 0 : 1);
  return labels.truncated({
    stream: name,
    characters: formatCount(truncatedChars, labels.numbers),
    first: formatCount(first, labels.numbers),
    last: at < text.length ? formatCount(last, labels.numbers) : null,
    total: cutLines === undefined ? null : formatCount(total, labels.numbers),
  });
}

/** In a stream cut in its middle, the mark where the server's cut is. */
export function CutMarker({
  truncatedChars,
  cutLines,
  labels,
}: {
  truncatedChars: number;
  cutLines: number | undefined;
  labels: ExecuteCodeLabels;
}) {
  return (
    <span className="ecu-hidden-marker" data-slot={slotName("cut")}>
      {cutLines
        ? labels.notKeptLines(formatCount(cutLines, labels.numbers))
        : labels.notKeptCharacters(formatCount(truncatedChars, labels.numbers))}
    </span>
  );
}

export interface OutputNotesProps {
  note: string | null;
  /** Later output overwrote some of the text: a terminal's view hides it, and the model read it. */
  overwritten?: boolean;
  /** What shows the overwritten text, where the pane can. */
  revealControl?: ReactNode;
  labels: ExecuteCodeLabels;
}

/** The pane's footer: the note on the server's cut, and the one on overwritten text. */
export function OutputNotes({ note, overwritten, revealControl, labels }: OutputNotesProps) {
  return (
    <>
      {note && (
        <p className="ecu-notice" data-slot={slotName("truncated")}>
          {note}
        </p>
      )}
      {overwritten && (
        <p className="ecu-notice" data-slot={slotName("overwritten")}>
          {labels.overwritten}
          {revealControl && <> {revealControl}</>}
        </p>
      )}
    </>
  );
}
