import type { ExecuteCodeTruncation } from "./result.js";
import { cutAt, markCut } from "./truncate.js";

/** 53 bits of a string (cyrb53): the same text gives the same mark in the browser and on the server. */
function markOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

/**
 * A run's two streams as a model reads them, each between two fence lines:
 * a run of `~` longer than any the program printed, and a mark made from
 * the output itself, which no program can print since it would change
 * with that very line. So nothing a program prints can end a stream early
 * and pass for the code runner's own words (an exit code, a figure, a
 * file). Made from the text alone: the same result always reads the same,
 * which keeps a provider's prompt cache. Put them last.
 */
export function streamsInWords(result: { stdout: string; stderr: string; truncated: ExecuteCodeTruncation }): string[] {
  let longest = 0;
  for (const [run] of `${result.stdout}${result.stderr}`.matchAll(/~+/g)) longest = Math.max(longest, run.length);
  const fence = `${"~".repeat(Math.max(3, longest + 1))} ${markOf(`${result.stdout}\u0000${result.stderr}`)}`;
  return (["stdout", "stderr"] as const).map((name) => {
    const text = result[name];
    if (!text) return `${name}: nothing`;
    const cut = result.truncated[name];
    const left = cut ? `; ${cut} characters of it were left out, where the line in brackets says` : "";
    const body = markCut(text, cut, cutAt(result.truncated, name, text), result.truncated.lines?.[name]);
    return `${name} (as printed, between the two lines "${fence}"${left}):\n${fence}\n${body}${body.endsWith("\n") ? "" : "\n"}${fence}`;
  });
}
