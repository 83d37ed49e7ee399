/** How much of a long stream is shown before "Show all". */
export interface OutputWindowLimits {
  maxLines: number;
  headLines: number;
  tailLines: number;
  maxChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputWindowLimits = {
  maxLines: 400,
  headLines: 250,
  tailLines: 100,
  maxChars: 40_000,
};

export type OutputWindow =
  | { kind: "whole"; text: string }
  | { kind: "cut"; head: string; tail: string; hiddenLines: number; hiddenChars: number };

/**
 * Keeps the head and the tail of very long output so the page stays fast;
 * the middle is hidden behind "Show all" (and stays in the copied text).
 */
export function windowOutput(text: string, limits: OutputWindowLimits = DEFAULT_OUTPUT_LIMITS): OutputWindow {
  if (text.length <= limits.maxChars) {
    let lines = 1;
    for (let i = text.indexOf("\n"); i !== -1 && lines <= limits.maxLines; i = text.indexOf("\n", i + 1)) lines++;
    if (lines <= limits.maxLines) return { kind: "whole", text };
  }
  const lines = text.split("\n");
  const charBudget = Math.floor(limits.maxChars / 2);
  if (lines.length > limits.headLines + limits.tailLines) {
    const head = lines.slice(0, limits.headLines).join("\n").slice(0, charBudget);
    const tail = lines.slice(-limits.tailLines).join("\n").slice(-charBudget);
    return {
      kind: "cut",
      head,
      tail,
      hiddenLines: lines.length - limits.headLines - limits.tailLines,
      hiddenChars: text.length - head.length - tail.length,
    };
  }
  // Few but very long lines: cut by characters.
  const head = text.slice(0, charBudget);
  const tail = text.slice(-charBudget);
  return {
    kind: "cut",
    head,
    tail,
    hiddenLines: Math.max(0, text.split("\n").length - head.split("\n").length - tail.split("\n").length),
    hiddenChars: text.length - head.length - tail.length,
  };
}
