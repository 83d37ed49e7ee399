// BENCHMARKS.md's results are the bench's own output, never edited by hand:
// they sit between two markers, and a run replaces what is between them.
export const RESULTS_START = "<!-- bench:results -->";
export const RESULTS_END = "<!-- /bench:results -->";

/** `document` with `report` between its results markers; throws where the markers are missing. */
export function withResults(document: string, report: string): string {
  const from = document.indexOf(RESULTS_START);
  const to = document.indexOf(RESULTS_END);
  if (from === -1 || to < from) throw new Error(`BENCHMARKS.md has no ${RESULTS_START} … ${RESULTS_END}`);
  return `${document.slice(0, from + RESULTS_START.length)}\n\n${report.trim()}\n\n${document.slice(to)}`;
}
