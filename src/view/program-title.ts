import { pythonLines } from "./python-lines.js";

/** Longest title a card shows; the header truncates it further to fit. */
const MAX_TITLE_CHARS = 80;

/** A title on one line, at most `MAX_TITLE_CHARS` long; null when nothing is left. */
function oneLine(text: string): string | null {
  const line = text.replace(/\s+/g, " ").trim();
  if (!line) return null;
  return line.length <= MAX_TITLE_CHARS ? line : `${line.slice(0, MAX_TITLE_CHARS - 1)}…`;
}

/**
 * What a program is about, for its card's title: the model's own title for
 * it (the tool input's `title`), else the program's first comment ("#
 * Primes below 50" → "Primes below 50"); null without either (the card then
 * says "Python"). A line of code says little of what the program is for,
 * and a shebang or an encoding line nothing.
 */
export function programTitle(code: string, given?: string | null): string | null {
  const own = given ? oneLine(given) : null;
  if (own) return own;
  for (const raw of pythonLines(code)) {
    const line = raw.trim();
    if (!line.startsWith("#") || line.startsWith("#!") || /^#.*coding[:=]/.test(line)) continue;
    const text = oneLine(line.replace(/^#+/, ""));
    if (text) return text;
  }
  return null;
}
