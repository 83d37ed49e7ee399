const CODE_KEY = /"code"\s*:\s*"/;

/** True when `argsText` is a complete JSON document (the model has finished the arguments). */
export function isCompleteJson(argsText: string): boolean {
  if (!argsText.trim()) return false;
  try {
    JSON.parse(argsText);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the `code` string out of tool arguments that are still streaming,
 * e.g. `{"code":"for i in range(3):\n    pri`. An escape sequence cut in half
 * is left out until the rest of it arrives. Returns null when no `code`
 * value has started yet.
 */
export function readStreamingCode(argsText: string): string | null {
  const key = CODE_KEY.exec(argsText);
  if (!key) return null;
  const start = key.index + key[0].length;
  let end = start;
  while (end < argsText.length) {
    const ch = argsText[end];
    if (ch === '"') break;
    if (ch === "\\") {
      const width = argsText[end + 1] === "u" ? 6 : 2;
      if (end + width > argsText.length) break;
      end += width;
      continue;
    }
    end += 1;
  }
  const body = argsText.slice(start, end);
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}
