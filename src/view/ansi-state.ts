const SGR = /\x1b\[([0-9;]*)m/g;
/** Enough to rebuild any realistic state; a pathological stream cannot make the prefix grow without end. */
const MAX_SEQUENCES = 64;

/**
 * The colour and style escape sequences in force at `index` of a terminal
 * stream: every SGR sequence since the last full reset. Put in front of text
 * cut from `index` on, they make it look as it did in the whole stream.
 */
export function ansiStateAt(text: string, index: number): string {
  // Nothing before the last full reset counts: a megabyte of coloured lines is scanned from there only.
  const from = Math.max(
    0,
    ...["\x1b[m", "\x1b[0m", "\x1b[0;"].map((reset) =>
      index >= reset.length ? text.lastIndexOf(reset, index - reset.length) : -1,
    ),
  );
  const before = text.slice(from, index);
  if (!before.includes("\x1b[")) return "";
  let sequences: string[] = [];
  for (const match of before.matchAll(SGR)) {
    const params = match[1]!;
    // "", "0" and "0;…" reset everything first.
    if (params === "" || params === "0" || params.startsWith("0;")) sequences = [];
    if (params !== "" && params !== "0") sequences.push(match[0]);
    if (sequences.length > MAX_SEQUENCES) sequences = sequences.slice(-MAX_SEQUENCES);
  }
  return sequences.join("");
}
