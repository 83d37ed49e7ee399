/** A size in English for messages a server writes: "840 B", "18.2 KB", "10 MB", "2 GB". */
export function bytesInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] =
    bytes < 1024 ** 2
      ? [bytes / 1024, "KB"]
      : bytes < 1024 ** 3
        ? [bytes / 1024 ** 2, "MB"]
        : [bytes / 1024 ** 3, "GB"];
  return `${value.toFixed(1).replace(/\.0$/, "")} ${unit}`;
}
