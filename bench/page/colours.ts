// What "the same colours" means to the benchmark, shared by the page (which
// reads the screen) and bench/run.ts (which highlights the expected program
// in Node, so that a scenario's page stays cold).
import type { CodeToken } from "../../src/ui/highlight/types";

/**
 * A line as runs of colour over its visible characters. Token boundaries and
 * the colour of whitespace differ between shiki's HTML (which merges
 * whitespace into the next token) and its tokens, but never show.
 */
export function colourRuns(tokens: Array<{ text: string; colour: string }>): string {
  const runs: Array<[string, string]> = [];
  for (const { text, colour } of tokens) {
    const visible = text.replace(/\s+/g, "");
    if (!visible) continue;
    const last = runs.at(-1);
    if (last && last[0] === colour) last[1] += visible;
    else runs.push([colour, visible]);
  }
  return runs.map(([colour, text]) => `${text}|${colour}`).join("");
}

export function expectedTokens(lines: CodeToken[][]): string {
  return lines
    .map((line) => colourRuns(line.map((t) => ({ text: t.content, colour: t.style["--shiki-light"] ?? "" }))))
    .join("\n");
}
