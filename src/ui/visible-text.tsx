import { Fragment, type ReactNode } from "react";

/**
 * Characters that change how text reads without being seen: bidi controls
 * (U+202E turns `invoice_\u202Efdp.exe` into "invoice_exe.pdf"), zero-width
 * spaces, and every other Unicode format character — except the two joiners,
 * which shape visible text (emoji sequences, Persian). Also ␍, which the card
 * puts where a carriage return was (view/carriage-returns.ts): it gets the
 * CR marker, since many fonts lack the Control Pictures.
 */
const IN_TEXT = /(?![\u200C\u200D])[\p{Cf}\u240D]/gu;
/**
 * In a program, where a person decides what runs, also: the joiners (a name
 * with one inside is not the name it looks like); every control character
 * but the tab (a form feed at the start of a line resets Python's count of
 * its indentation, so a line shown indented runs at the top level; a
 * terminal acts on the others or hides them); the line and paragraph
 * separators (a browser may break the line there, Python does not); and the
 * Hangul fillers, blank letters that Python takes in a name.
 */
const IN_CODE = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]/gu;

/**
 * What a marker shows for a C0 control character: its abbreviation (FF for
 * a form feed), as editors show them; fonts often lack the Control Pictures
 * (␌), and a box with a box in it reads as nothing.
 */
const C0 = (
  "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI " +
  "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split(" ");

/** Names of the characters most used to hide or reorder text, for a marker's label. */
const NAMES = new Map<number, string>([
  [0x00, "null"],
  [0x07, "bell"],
  [0x08, "backspace"],
  [0x0b, "vertical tab"],
  [0x0c, "form feed"],
  [0x0d, "carriage return"],
  [0x1b, "escape"],
  [0x7f, "delete"],
  [0x85, "next line"],
  [0xad, "soft hyphen"],
  [0x061c, "Arabic letter mark"],
  [0x115f, "Hangul choseong filler"],
  [0x1160, "Hangul jungseong filler"],
  [0x180e, "Mongolian vowel separator"],
  [0x200b, "zero width space"],
  [0x200c, "zero width non-joiner"],
  [0x200d, "zero width joiner"],
  [0x200e, "left-to-right mark"],
  [0x200f, "right-to-left mark"],
  [0x2028, "line separator"],
  [0x2029, "paragraph separator"],
  [0x202a, "left-to-right embedding"],
  [0x202b, "right-to-left embedding"],
  [0x202c, "pop directional formatting"],
  [0x202d, "left-to-right override"],
  [0x202e, "right-to-left override"],
  [0x2060, "word joiner"],
  [0x2066, "left-to-right isolate"],
  [0x2067, "right-to-left isolate"],
  [0x2068, "first strong isolate"],
  [0x2069, "pop directional isolate"],
  [0x240d, "carriage return"],
  [0x3164, "Hangul filler"],
  [0xfeff, "zero width no-break space"],
  [0xffa0, "halfwidth Hangul filler"],
]);

/** A character's code point as Unicode writes it: "U+202E". */
export const codePointOf = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

function markerFor(char: string): { codePoint: string; marker: string; label: string } {
  const value = char.codePointAt(0)!;
  const codePoint = codePointOf(char);
  // C0 controls and DEL show their abbreviation; the rest their code point.
  const marker = C0[value] ?? (value === 0x7f ? "DEL" : value === 0x240d ? "CR" : `\u27E8${codePoint}\u27E9`);
  const name = NAMES.get(value) ?? (/\p{Cc}/u.test(char) ? "control character" : "invisible character");
  return { codePoint, marker, label: `${codePoint} ${name}` };
}

/**
 * Text with its invisible characters shown as markers (a control
 * character's abbreviation, or the code point), as code review tools do;
 * `code` marks more of them (see IN_CODE). The character itself stays in the
 * page, isolated so that it reorders nothing and drawn at no size (a browser
 * draws some control characters), and the marker is drawn by the
 * stylesheet: selected and copied text is the original.
 */
export function revealInvisible(text: string, { code = false }: { code?: boolean } = {}): ReactNode {
  const hidden = code ? IN_CODE : IN_TEXT;
  // `search` ignores and keeps the pattern's lastIndex.
  if (text.search(hidden) === -1) return text;
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(hidden)) {
    if (match.index > from) parts.push(text.slice(from, match.index));
    const { codePoint, marker, label } = markerFor(match[0]);
    parts.push(
      <span
        key={match.index}
        className="ecu-invisible"
        data-code-point={codePoint}
        data-marker={marker}
        role="img"
        aria-label={label}
        title={label}
      >
        <span className="ecu-invisible-char">{match[0]}</span>
      </span>,
    );
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <Fragment>{parts}</Fragment>;
}

export function VisibleText({ text }: { text: string }) {
  return <>{revealInvisible(text)}</>;
}
