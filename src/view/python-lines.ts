/**
 * Python's line breaks: `\r\n`, `\n`, and a lone `\r` too. Python's tokenizer
 * reads all three as the end of a line (and numbers a traceback's lines so),
 * where a browser or an editor may read a lone `\r` as nothing:
 * `x = 1  # note\rimport os` is two lines to Python, the second one code.
 */
const LINE_BREAK = /\r\n?|\n/;
const CARRIAGE_RETURNS = /\r\n?/g;

/** The lines of a program as Python reads them, without their line breaks. */
export function pythonLines(code: string): string[] {
  return code.includes("\r") ? code.split(LINE_BREAK) : code.split("\n");
}

/**
 * The program with each of Python's line breaks written `\n`: the same lines
 * as Python's, for code that splits on `\n` (the highlighter). A program
 * that grows at its end keeps its prefix: a `\r` that a `\n` then follows
 * stays one line break.
 */
export function withPythonLineBreaks(code: string): string {
  return code.includes("\r") ? code.replace(CARRIAGE_RETURNS, "\n") : code;
}
