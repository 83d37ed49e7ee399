/** Keeps the first `limit` characters; says how many were cut. */
export function truncateText(text: string, limit: number): { text: string; cut: number } {
  if (text.length <= limit) return { text, cut: 0 };
  // Do not split a surrogate pair.
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), cut: text.length - end };
}

/** One stream's text as its pieces arrive, kept within `limit` characters (by `truncateText`), the rest counted. */
export class CappedText {
  text = "";
  cut = 0;
  constructor(readonly limit: number) {}

  /** Adds a piece; returns the part of it that was kept. */
  add(piece: string): string {
    const kept = truncateText(piece, Math.max(0, this.limit - this.text.length));
    this.text += kept.text;
    this.cut += kept.cut;
    return kept.text;
  }
}
