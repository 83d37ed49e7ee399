const FRAME = /^\s*File "([^"]+)", line (\d+)/;
const SGR = /\x1b\[[0-9;]*m/g;
const LIBRARY_FILE = /site-packages|dist-packages|[\\/]lib[\\/]python|^<frozen |^\/usr\//;

/** A line of stderr that points at a line of the program itself. */
export interface ProgramFrame {
  /** Index of the line in stderr (0-based). */
  stderrLine: number;
  /** Line of the program it points at (1-based). */
  programLine: number;
}

/**
 * Finds the traceback frames on stderr that point into the program that was
 * run (not into the standard library or installed packages). Works for the
 * usual `File "<program>", line 3, in <module>` frames and for syntax errors.
 */
export function findProgramFrames(stderr: string, programLineCount: number): ProgramFrame[] {
  if (!stderr.includes("File ")) return [];
  const frames: ProgramFrame[] = [];
  stderr.split("\n").forEach((text, stderrLine) => {
    const match = FRAME.exec(text.replace(SGR, ""));
    if (!match) return;
    const file = match[1] ?? "";
    const programLine = Number(match[2]);
    if (LIBRARY_FILE.test(file)) return;
    if (programLine < 1 || programLine > programLineCount) return;
    frames.push({ stderrLine, programLine });
  });
  return frames;
}
