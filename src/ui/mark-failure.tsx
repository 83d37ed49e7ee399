import { Fragment, type CSSProperties, type ReactNode } from "react";
import { isFailure } from "../contract/result-guards.js";
import { slotName } from "../view/slots.js";
import type { CodeToken } from "./highlight/types.js";
import { codePointOf, revealInvisible } from "./visible-text.js";

const IN_CODE = { code: true };

// Generated content shows characters as they are: one that would reorder, hide or break the line is named.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const named = (character: string) => `⟨${codePointOf(character)}⟩`;

/** The offset, in UTF-16 units as the line's text counts them, of code point `column`. */
function unitsAt(text: string, column: number): number {
  let units = 0;
  let points = 0;
  for (const character of text) {
    if (points++ >= column) break;
    units += character.length;
  }
  return units;
}

/**
 * The failing line with what Python's carets point at wrapped in a mark,
 * token by token, and the values the line read beside it (generated content:
 * never copied with the code). Null where the facts do not mark `line`.
 */
export function markFailure(
  pieces: readonly { content: string; style?: CodeToken["style"] }[],
  text: string,
  line: number,
  failure: unknown,
): ReactNode | null {
  if (!isFailure(failure) || failure.line !== line || failure.column === undefined) return null;
  const start = unitsAt(text, failure.column);
  const sameLine = (failure.endLine ?? line) === line && failure.endColumn !== undefined;
  const end = sameLine ? unitsAt(text, failure.endColumn!) : text.length;
  if (end <= start) return null;
  const values = failure.values
    ?.map((each) => `${each.name} = ${each.value}`)
    .join("   ")
    .replace(HIDDEN, named);
  let at = 0;
  return (
    <>
      {pieces.map((piece, i) => {
        const from = at;
        at += piece.content.length;
        const a = Math.max(0, start - from);
        const b = Math.min(piece.content.length, end - from);
        const content =
          b > a ? (
            <>
              {revealInvisible(piece.content.slice(0, a), IN_CODE)}
              <span className="ecu-error-span" data-slot={slotName("error-span")}>
                {revealInvisible(piece.content.slice(a, b), IN_CODE)}
              </span>
              {revealInvisible(piece.content.slice(b), IN_CODE)}
            </>
          ) : (
            revealInvisible(piece.content, IN_CODE)
          );
        return piece.style ? (
          <span key={i} className="ecu-token" style={piece.style as CSSProperties}>
            {content}
          </span>
        ) : (
          <Fragment key={i}>{content}</Fragment>
        );
      })}
      {values && <span className="ecu-line-values" data-values={values} />}
    </>
  );
}
