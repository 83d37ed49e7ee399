const SGR = /\x1b\[([0-9;]*)m/g;
/** Enough to rebuild any realistic state; a pathological stream cannot make the prefix grow without end. */
const MAX_SEQUENCES = 64;

const isReset = (params: string) => params === "" || params === "0" || params.startsWith("0;");
const SGR_AT = /\x1b\[([0-9;]*)m/y;

/** Where the last whole colour sequence that resets everything and ends by `index` starts; 0 without one. */
function lastResetBefore(text: string, index: number): number {
  for (let at = text.lastIndexOf("\x1b[", index - 1); at !== -1; at = at > 0 ? text.lastIndexOf("\x1b[", at - 1) : -1) {
    SGR_AT.lastIndex = at;
    const match = SGR_AT.exec(text);
    if (match && at + match[0].length <= index && isReset(match[1]!)) return at;
  }
  return 0;
}

/**
 * The colour and style escape sequences in force at `index` of a terminal
 * stream: every SGR sequence since the last full reset. Put in front of text
 * cut from `index` on, they make it look as it did in the whole stream.
 */
export function ansiStateAt(text: string, index: number): string {
  // Nothing before the last full reset counts: a megabyte of coloured lines is read back to there only.
  const from = lastResetBefore(text, index);
  const before = text.slice(from, index);
  if (!before.includes("\x1b[")) return "";
  let sequences: string[] = [];
  for (const match of before.matchAll(SGR)) {
    const params = match[1]!;
    // "", "0" and "0;…" reset everything first.
    if (isReset(params)) sequences = [];
    if (params !== "" && params !== "0") sequences.push(match[0]);
    if (sequences.length > MAX_SEQUENCES) sequences = sequences.slice(-MAX_SEQUENCES);
  }
  return sequences.join("");
}
