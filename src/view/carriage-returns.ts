// A carriage return (`\r` not before `\n`) sends a terminal back to the
// start of its line: what follows overwrites what was there. The card shows
// output as a terminal would, and can show what was overwritten, since the
// model reads all of it.

const LONE_CARRIAGE_RETURN = /\r(?!\n)/g;

/** Whether a carriage return in `text` hid something a terminal no longer shows. */
export function hasOverwrittenText(text: string): boolean {
  if (!text.includes("\r")) return false;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .some((line) => {
      const parts = line.split("\r");
      // A part with text is covered by whatever a later part writes over it.
      let laterWrites = false;
      for (let k = parts.length - 1; k >= 0; k--) {
        if (laterWrites && parts[k]!.trim() !== "") return true;
        if (parts[k]!.length > 0) laterWrites = true;
      }
      return false;
    });
}

/** The control picture ␍ in place of each carriage return: every part of a line shows, in order. */
export const showCarriageReturns = (text: string): string => text.replace(LONE_CARRIAGE_RETURN, "\u240d");
