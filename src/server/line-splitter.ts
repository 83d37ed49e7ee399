/**
 * Splits a stream of text into lines in time linear in its length: each
 * chunk is searched once, and a line that comes in many chunks is joined
 * once, when its end arrives. (Searching the whole buffer again on every
 * chunk is quadratic in a long line.)
 */
export function createLineSplitter(onLine: (line: string) => void) {
  let parts: string[] = [];
  return {
    push(chunk: string) {
      let start = 0;
      for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
        parts.push(chunk.slice(start, end));
        const line = parts.join("");
        parts = [];
        start = end + 1;
        onLine(line);
      }
      if (start < chunk.length) parts.push(chunk.slice(start));
    },
    /** Forgets a partial line. */
    reset() {
      parts = [];
    },
  };
}
