import { pythonLines } from "./python-lines.js";

/** Longest title a card takes from its program; the header truncates it further to fit. */
const MAX_TITLE_CHARS = 80;

/**
 * What a program is about, for its card's title: its first comment ("#
 * Primes below 50" → "Primes below 50"), else its first line of code; null
 * while there is none. A shebang and an encoding line say nothing about it.
 */
export function programTitle(code: string): string | null {
  for (const raw of pythonLines(code)) {
    const line = raw.trim();
    if (!line || line.startsWith("#!") || /^#.*coding[:=]/.test(line)) continue;
    const text = line.startsWith("#") ? line.replace(/^#+\s*/, "") : line;
    if (!text) continue;
    return text.length <= MAX_TITLE_CHARS ? text : `${text.slice(0, MAX_TITLE_CHARS - 1)}…`;
  }
  return null;
}
