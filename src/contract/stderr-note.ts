/**
 * The error output with a line of the sandbox's own after it (why a run was
 * stopped, what became of its session), on a line of its own.
 */
export function withNote(stderr: string, note: string): string {
  return `${stderr}${stderr && !stderr.endsWith("\n") ? "\n" : ""}${note}\n`;
}
