/** For a CSV or TSV: its header row and how many rows follow, in words for the model; nothing for other files. */
export function tableSummary(bytes: Uint8Array, mediaType: string): string | undefined {
  if (mediaType !== "text/csv" && mediaType !== "text/tab-separated-values") return undefined;
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
  while (lines.length && !lines.at(-1)!.trim()) lines.pop();
  if (!lines.length) return undefined;
  const header = lines[0]!.length > 300 ? `${lines[0]!.slice(0, 300)}…` : lines[0]!;
  const rows = lines.length - 1;
  return `header row: ${header}; ${rows} ${rows === 1 ? "row" : "rows"} below it`;
}
