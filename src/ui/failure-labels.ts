import { explainFailure, type ExplainFailure } from "../contract/explain-failure.js";

/** The words of why a run failed (contract/failure.ts). English here; `labels.failure` overrides any of them. */
export interface FailureLabels {
  /** The failure in plain words, with code apart; null for an error there are no words for. */
  explain: ExplainFailure;
  /** Before the values at the failing line: where they are (`fn` null at the program's top level). */
  valuesAt: (line: string, fn: string | null) => string;
  /** How big a value is that its written form does not show whole. */
  size: (count: string, type: string) => string;
  /** A run of a library's frames in a traceback, folded to this line. */
  libraryFrames: (count: number, formatted: string, module: string) => string;
}

export const englishFailureLabels: FailureLabels = {
  explain: explainFailure,
  valuesAt: (line, fn) => (fn ? `At line ${line}, in ${fn}():` : `At line ${line}:`),
  size: (count, type) =>
    type === "str" ? `${count} characters` : type === "bytes" ? `${count} bytes` : `${count} items`,
  libraryFrames: (count, formatted, module) => `${formatted} ${count === 1 ? "step" : "steps"} inside ${module}`,
};
