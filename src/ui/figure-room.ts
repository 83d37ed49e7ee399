import type { CSSProperties } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";

/** A file's own name, without the folders the program saved it in. */
export const baseName = (name: string) => name.split("/").at(-1) ?? name;

// Matplotlib's default figure, 640 × 480 at 100 dpi (as the sandboxes save figures): the room kept when
// the sandbox does not give the size, and while a program that draws runs. On a card narrower than 640 px,
// 4:3 of its width.
export const DEFAULT_SIZE = { width: 640, height: 480 };

export type FigureSize = typeof DEFAULT_SIZE;

/** A figure's size in pixels: the sandbox's, or matplotlib's default. */
export const figureSize = (file: ExecuteCodeRunFile): FigureSize =>
  file.width && file.height ? { width: file.width, height: file.height } : DEFAULT_SIZE;

/**
 * A figure's room: as wide as its frame allows, up to its own width in px,
 * at its own ratio. The figure, the room a running program keeps for it and
 * the room before the figure's code has loaded share this, so the card does
 * not jump when the figure arrives.
 */
export const roomStyle = ({ width, height }: FigureSize) =>
  ({ "--ecu-figure-width": `${width}px`, "--ecu-figure-ratio": `${width} / ${height}` }) as CSSProperties;
