import { countLineBreaks } from "../contract/truncate.js";

/** Output longer than this starts folded. */
export const OUTPUT_FOLDED_LINES = 12;

/** Lines of a stream: a final line break ends its last line. */
export const lineCountOf = (text: string): number => countLineBreaks(text) + (text.endsWith("\n") ? 0 : 1);
