import { Fragment, type ReactNode } from "react";

/**
 * Characters that change how text reads without being seen: bidi controls
 * (U+202E turns `invoice_\u202Efdp.exe` into "invoice_exe.pdf"), zero-width
 * spaces, and every other Unicode format character — except the two joiners,
 * which shape visible text (emoji sequences, Persian).
 */
const INVISIBLE = /(?![\u200C\u200D])\p{Cf}/u;
const INVISIBLES = /(?![\u200C\u200D])\p{Cf}/gu;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Text with its invisible format characters shown as markers naming the
 * code point, as code review tools do. The character itself stays in the
 * page, isolated so that it reorders nothing, and the marker is drawn by the
 * stylesheet: selected and copied text is the original.
 */
export function revealInvisible(text: string): ReactNode {
  if (!INVISIBLE.test(text)) return text;
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(INVISIBLES)) {
    if (match.index > from) parts.push(text.slice(from, match.index));
    const name = codePoint(match[0]);
    parts.push(
      <span key={match.index} className="ecu-invisible" data-code-point={name} title={name}>
        {match[0]}
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
