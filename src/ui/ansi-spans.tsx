// The coloured half of AnsiText (ansi.tsx), in the chunk that loads anser:
// most output has no escape codes, and the first card never waits for it.
import anser from "anser";
import { Fragment, type CSSProperties, type ReactNode } from "react";
import { LEFTOVER_CONTROLS } from "./ansi-controls.js";
import { revealInvisible } from "./visible-text.js";

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

/** Text after carriage returns as spans with its SGR colours and decorations; other control bytes dropped. */
export function ansiSpans(clean: string): ReactNode[] {
  const chunks = anser.ansiToJson(clean.replace(NOT_CSI, ""), { use_classes: true, remove_empty: true, json: true });
  return chunks.map((chunk, i) => {
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
}
