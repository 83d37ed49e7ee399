import type { ExecuteCodeTruncation } from "./result.js";
import { cutAt, markCut } from "./truncate.js";

/**
 * A run's two streams as a model reads them, each between two lines of `~`
 * longer than any run of `~` the program printed, so that nothing it prints
 * can end a stream early and pass for the code runner's own words (an exit
 * code, a figure, a file). Made from the text alone: the same result always
 * reads the same, which keeps a provider's prompt cache. Put them last.
 */
export function streamsInWords(result: { stdout: string; stderr: string; truncated: ExecuteCodeTruncation }): string[] {
  let longest = 0;
  for (const [run] of `${result.stdout}${result.stderr}`.matchAll(/~+/g)) longest = Math.max(longest, run.length);
  const fence = "~".repeat(Math.max(3, longest + 1));
  return (["stdout", "stderr"] as const).map((name) => {
    const text = result[name];
    if (!text) return `${name}: nothing`;
    const cut = result.truncated[name];
    const left = cut ? `; ${cut} characters of it were left out, where the line in brackets says` : "";
    const body = markCut(text, cut, cutAt(result.truncated, name, text), result.truncated.lines?.[name]);
    return `${name} (as printed, between the two ${fence} lines${left}):\n${fence}\n${body}${body.endsWith("\n") ? "" : "\n"}${fence}`;
  });
}
