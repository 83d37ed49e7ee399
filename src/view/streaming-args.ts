/**
 * A JSON string body up to its closing quote, leaving out an escape sequence
 * cut in half. Written as an unrolled loop so the regular expression engine
 * scans runs of plain characters natively, without backtracking per character:
 * it runs on every streamed delta of programs of many thousand characters.
 */
const STRING_BODY = /[^"\\]*(?:\\(?:u[0-9a-fA-F]{4}|[^u])[^"\\]*)*/y;

/** True when `argsText` is a complete JSON document (the model has finished the arguments). */
export function isCompleteJson(argsText: string): boolean {
  // Arguments are an object: while one streams, its text cannot end with "}"
  // except inside a string, so most deltas need no parse attempt.
  if (!argsText.trimEnd().endsWith("}")) return false;
  try {
    JSON.parse(argsText);
    return true;
  } catch {
    return false;
  }
}

const KEYS = { code: /"code"\s*:\s*"/, title: /"title"\s*:\s*"/ };

/**
 * Reads the `code` or `title` string out of tool arguments that are still
 * streaming, e.g. `{"code":"for i in range(3):\n    pri`. An escape
 * sequence cut in half is left out until the rest of it arrives. Returns
 * null when that value has not started yet.
 */
export function readStreamingString(argsText: string, name: keyof typeof KEYS): string | null {
  const key = KEYS[name].exec(argsText);
  if (!key) return null;
  STRING_BODY.lastIndex = key.index + key[0].length;
  const body = STRING_BODY.exec(argsText)?.[0] ?? "";
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/** The `code` string of streaming tool arguments (`readStreamingString`). */
export const readStreamingCode = (argsText: string): string | null => readStreamingString(argsText, "code");
