const FRAME = /^(\s*File "([^"]+)", )(line (\d+))/;
const SGR = /\x1b\[[0-9;]*m/g;
const LIBRARY_FILE = /site-packages|dist-packages|[\\/]lib[\\/]python|^<frozen |^\/usr\//;

/** A line of stderr that points at a line of the program itself. */
export interface ProgramFrame {
  /** Index of the line in stderr (0-based). */
  stderrLine: number;
  /** Line of the program it points at (1-based). */
  programLine: number;
}

/** Where a frame's `line N` is in one line of stderr (without escapes), and the file it names. */
export interface FrameReference {
  file: string;
  line: number;
  /** Offsets of `line N` in the text: a link covers exactly these characters. */
  start: number;
  end: number;
}

/**
 * Reads a traceback frame (`  File "<program>", line 3, in <module>`). The
 * line number is the one after the file's closing quote, so a file named
 * `line 99` never stands for it.
 */
export function frameReference(text: string): FrameReference | null {
  const match = FRAME.exec(text);
  if (!match) return null;
  const start = match[1]!.length;
  return { file: match[2]!, line: Number(match[4]), start, end: start + match[3]!.length };
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
    const frame = frameReference(text.replace(SGR, ""));
    if (!frame) return;
    const programLine = frame.line;
    if (LIBRARY_FILE.test(frame.file)) return;
    if (programLine < 1 || programLine > programLineCount) return;
    frames.push({ stderrLine, programLine });
  });
  return frames;
}

/** A run of a library's frames in a traceback: lines `start` to `end` (exclusive) of stderr, `files` in order. */
export interface LibraryRun {
  start: number;
  end: number;
  files: string[];
}

// Lines a frame goes on with: its source, Python's carets, "[Previous line repeated 996 more times]".
const FRAME_DETAIL = /^ {4}|^ {2}\[Previous line repeated/;

/**
 * The runs of consecutive frames in stderr's tracebacks that are not the
 * program's own (the standard library's, an installed package's): each with
 * the lines of its frames, to be folded behind one line. Which files are a
 * library's: `isLibrary`, by default those under a Python's own folders.
 */
export function libraryRuns(
  stderr: string,
  isLibrary: (file: string) => boolean = (file) => LIBRARY_FILE.test(file),
): LibraryRun[] {
  if (!stderr.includes("File ")) return [];
  const lines = stderr.replace(SGR, "").split("\n");
  const runs: LibraryRun[] = [];
  let run: LibraryRun | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const frame = frameReference(line);
    if (frame && isLibrary(frame.file)) {
      run ??= { start: i, end: i + 1, files: [] };
      run.files.push(frame.file);
      run.end = i + 1;
    } else if (run && !frame && FRAME_DETAIL.test(line)) {
      run.end = i + 1;
    } else if (run) {
      runs.push(run);
      run = null;
    }
  }
  if (run) runs.push(run);
  return runs;
}

/** The package a library's file belongs to (`json` for `…/python3.11/json/decoder.py`), or its file's name. */
export function libraryName(file: string): string {
  const match = /(?:site|dist)-packages[\\/]([^\\/]+)/.exec(file) ?? /python3(?:\.\d+)?[\\/]([^\\/]+)/.exec(file);
  const name = match?.[1] ?? file.split(/[\\/]/).at(-1) ?? file;
  return name.replace(/\.py$/, "");
}
