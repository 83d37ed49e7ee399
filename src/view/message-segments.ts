/** A stretch of a chat message: its prose, or a fenced block of code as written. */
export type MessageSegment = { kind: "text"; text: string } | { kind: "code"; language: string; code: string };

/** Where the line holding `at` starts. */
const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;

/**
 * A message's text cut at its fenced blocks, as Markdown has them: a line
 * that starts with three or more backticks opens a block, and a line of at
 * least as many backticks, and nothing else, closes it. Each block's body is
 * exactly as written (only the line break before the closing fence is the
 * fence's). Found with indexOf, in time linear in the text: a pattern that
 * backtracks takes seconds on a long run of backticks. A fence not yet
 * closed (the message still streaming, or a stray one) stays text.
 */
export function messageSegments(text: string): MessageSegment[] {
  const segments: MessageSegment[] = [];
  let at = 0;
  let search = 0;
  while (search < text.length) {
    const open = text.indexOf("```", search);
    if (open === -1) break;
    let ticks = open;
    while (text[ticks] === "`") ticks++;
    const lineEnd = text.indexOf("\n", ticks);
    // Backticks inside a line, or an info string with a backtick in it, are no fence.
    if (lineStart(text, open) !== open || lineEnd === -1 || text.slice(ticks, lineEnd).includes("`")) {
      search = lineEnd === -1 ? text.length : lineEnd + 1;
      continue;
    }
    const fence = text.slice(open, ticks);
    const close = closingFence(text, lineEnd + 1, fence.length);
    if (close === null) break;
    if (open > at) segments.push({ kind: "text", text: text.slice(at, open) });
    const body = text.slice(lineEnd + 1, close.start);
    segments.push({
      kind: "code",
      language: text.slice(ticks, lineEnd).trim(),
      code: body.endsWith("\n") ? body.slice(0, -1) : body,
    });
    at = search = close.end;
  }
  if (at < text.length) segments.push({ kind: "text", text: text.slice(at) });
  return segments;
}

/** The first line from `from` on that is `length` or more backticks and nothing else (spaces aside). */
function closingFence(text: string, from: number, length: number): { start: number; end: number } | null {
  let line = from;
  while (line < text.length) {
    const next = text.indexOf("\n", line);
    const end = next === -1 ? text.length : next;
    const content = text.slice(line, end).trimEnd();
    if (content.length >= length && /^`+$/.test(content)) return { start: line, end: next === -1 ? end : end + 1 };
    line = end + 1;
  }
  return null;
}
