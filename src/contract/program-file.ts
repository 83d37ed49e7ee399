/** The file name a program's traceback frames carry, in every runner of the kit. */
export const PROGRAM_FILE = "<program>";
