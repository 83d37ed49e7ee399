/** A stretch of a chat message: its prose, or a fenced block of code as written. */
export type MessageSegment = { kind: "text"; text: string } | { kind: "code"; language: string; code: string };

/**
 * A message's text cut at its fenced blocks (```python … ```), each block's
 * body exactly as written (only the line break before the closing fence is
 * the fence's). Found with indexOf, in time linear in the text: a pattern
 * that backtracks takes seconds on a long run of backticks. A fence not yet
 * closed (the message still streaming, or a stray one) stays text.
 */
export function messageSegments(text: string): MessageSegment[] {
  const segments: MessageSegment[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf("```", at);
    const lineEnd = open === -1 ? -1 : text.indexOf("\n", open + 3);
    const close = lineEnd === -1 ? -1 : text.indexOf("```", lineEnd + 1);
    if (close === -1) break;
    if (open > at) segments.push({ kind: "text", text: text.slice(at, open) });
    const body = text.slice(lineEnd + 1, close);
    segments.push({
      kind: "code",
      language: text.slice(open + 3, lineEnd).trim(),
      code: body.endsWith("\n") ? body.slice(0, -1) : body,
    });
    at = close + 3;
    if (text[at] === "\n") at++;
  }
  if (at < text.length) segments.push({ kind: "text", text: text.slice(at) });
  return segments;
}
