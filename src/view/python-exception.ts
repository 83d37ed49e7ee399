/**
 * The line a Python traceback ends with ("ZeroDivisionError: division by
 * zero"), the first thing a student needs of a failed run; null when stderr
 * does not end in one (a program that wrote to stderr and called
 * `sys.exit(1)`, say).
 */
export function pythonException(stderr: string): string | null {
  const last = stderr.trimEnd().split("\n").at(-1)?.trim() ?? "";
  // A dotted exception class name, alone or followed by its message.
  const match = /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Warning|Iteration))(?::\s|$)/.exec(
    last,
  );
  if (!match) return null;
  return last.length <= 500 ? last : `${last.slice(0, 499)}…`;
}
