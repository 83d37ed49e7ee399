/**
 * Whether a run's stderr ends as the traceback of the facts' exception does
 * ("ZeroDivisionError: …", "json.decoder.JSONDecodeError: …"). The facts are
 * made in the run's own process: a program that ended without raising (and
 * wrote facts of its own) gets none shown.
 */
export function failureFitsStderr(failure: unknown, stderr: string): boolean {
  const type = (failure as { type?: unknown } | null | undefined)?.type;
  if (typeof type !== "string" || !type) return false;
  const last = stderr.trimEnd().split("\n").at(-1) ?? "";
  // Without the module a class of a library is named by ("json.decoder.").
  const named = last.replace(/^(?:[A-Za-z_]\w*\.)*/, "");
  return named === type || named.startsWith(`${type}:`);
}
