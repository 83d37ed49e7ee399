/**
 * Milliseconds to wait before retrying, from a `Retry-After` header (seconds
 * or an HTTP date) or the body's `retry_after_seconds`; null when neither says.
 */
export function readRetryAfterMs(header: string | null, body: unknown, now = Date.now()): number | null {
  if (header) {
    const trimmed = header.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  if (body && typeof body === "object" && "retry_after_seconds" in body) {
    const seconds = Number((body as { retry_after_seconds: unknown }).retry_after_seconds);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  }
  return null;
}
