/** A program's own words among the facts (a figure's title, a value): on one line, so they cannot start a line of their own. */
export const oneLine = (text: string) => text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ");
