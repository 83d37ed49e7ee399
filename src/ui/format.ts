// Intl formatters are costly to build and a streaming card formats on every update.
const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, maximumFractionDigits?: number): Intl.NumberFormat {
  const key = `${locale}|${maximumFractionDigits ?? ""}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, maximumFractionDigits === undefined ? {} : { maximumFractionDigits });
    formatters.set(key, format);
  }
  return format;
}

/** A duration as people read it: "840 ms", "3.2 s", "2 min 5 s". */
export function formatDuration(ms: number, locale: string): string {
  if (ms < 1000) return `${numberFormat(locale, 0).format(ms)} ms`;
  if (ms < 60_000) return `${numberFormat(locale, 1).format(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

export function formatCount(n: number, locale: string): string {
  return numberFormat(locale).format(n);
}
