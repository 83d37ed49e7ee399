/**
 * The marks a language writes numbers with. The card formats its few numbers
 * (counts, durations) itself: a page's first Intl.NumberFormat takes tens of
 * milliseconds to build, which would land in the card's first frame.
 */
export interface NumberSeparators {
  decimal: string;
  /** Between groups of three digits. */
  group: string;
}

/** A whole number, digits grouped by threes: "12,345". */
export function formatCount(n: number, separators: NumberSeparators): string {
  const digits = String(Math.round(Math.abs(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, separators.group);
  return n < 0 ? `-${grouped}` : grouped;
}

/** A duration as people read it: "840 ms", "3.2 s", "2 min 5 s". */
export function formatDuration(ms: number, separators: NumberSeparators): string {
  if (ms < 1000) return `${formatCount(ms, separators)} ms`;
  if (ms < 60_000) {
    const [whole, tenths] = (ms / 1000).toFixed(1).split(".");
    return `${whole}${tenths === "0" ? "" : `${separators.decimal}${tenths}`} s`;
  }
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** A file size as people read it: "840 B", "18.2 KB", "1.5 MB". */
export function formatBytes(bytes: number, separators: NumberSeparators): string {
  if (bytes < 1024) return `${formatCount(bytes, separators)} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / 1024 / 1024, "MB"];
  const [whole, tenths] = value.toFixed(1).split(".");
  return `${formatCount(Number(whole), separators)}${tenths === "0" ? "" : `${separators.decimal}${tenths}`} ${unit}`;
}
