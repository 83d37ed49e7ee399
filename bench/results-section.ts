// BENCHMARKS.md's results are the bench's own output, never edited by hand:
// they sit between two markers, and a run replaces what is between them.
// The main table is `results`; a scenario that runs alone (the class day)
// has a section of its own.
export const RESULTS_START = "<!-- bench:results -->";
export const RESULTS_END = "<!-- /bench:results -->";

/** `document` with `report` between the markers of section `name`; throws where the markers are missing. */
export function withResults(document: string, report: string, name = "results"): string {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from === -1 || to < from) throw new Error(`BENCHMARKS.md has no ${start} … ${end}`);
  return `${document.slice(0, from + start.length)}\n\n${report.trim()}\n\n${document.slice(to)}`;
}
