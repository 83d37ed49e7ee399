// A carriage return (`\r` not before `\n`) sends a terminal back to the
// start of its line: what follows overwrites what was there. The card shows
// output as a terminal would, and can show what was overwritten, since the
// model reads all of it.

const LONE_CARRIAGE_RETURN = /\r(?!\n)/g;

/**
 * Whether a carriage return in `text` hid something a terminal no longer
 * shows: on a line, a part with text before a lone `\r` and anything written
 * after it. Only lines with a lone `\r` are looked at, without copying the
 * text: a megabyte of output costs one scan.
 */
export function hasOverwrittenText(text: string): boolean {
  for (let cr = text.indexOf("\r"); cr !== -1; ) {
    const start = text.lastIndexOf("\n", cr) + 1;
    const newline = text.indexOf("\n", cr);
    const end = newline === -1 ? text.length : newline;
    if (overwritesOnLine(text, start, end)) return true;
    cr = newline === -1 ? -1 : text.indexOf("\r", newline);
  }
  return false;
}

/** Whether, between `start` and `end` (a line), a part with text comes before a part with anything in it. */
function overwritesOnLine(text: string, start: number, end: number): boolean {
  // A `\r` right before the line's `\n` ends the line (CRLF); it overwrites nothing.
  const last = text[end] === "\n" && text[end - 1] === "\r" ? end - 1 : end;
  let textBefore = false;
  for (let partStart = start; partStart <= last; ) {
    const cr = text.indexOf("\r", partStart);
    const partEnd = cr === -1 || cr > last ? last : cr;
    if (partEnd > partStart) {
      if (textBefore) return true;
      if (/\S/.test(text.slice(partStart, partEnd))) textBefore = true;
    }
    partStart = partEnd + 1;
  }
  return false;
}

/** The control picture ␍ in place of each carriage return: every part of a line shows, in order. */
export const showCarriageReturns = (text: string): string => text.replace(LONE_CARRIAGE_RETURN, "\u240d");
