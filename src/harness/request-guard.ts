import type { IncomingMessage } from "node:http";
import { HttpRefusal } from "../server/http/http.js";
import {
  checkSameOrigin as checkHeaders,
  checkSameOriginJson as checkJsonHeaders,
  type HeaderReader,
} from "../server/http/same-origin.js";

/** A 429 for a caller over a rate limit, telling it in whole seconds (and `Retry-After`) when to come back. */
export function rateLimited(code: string, message: (seconds: number) => string, retryAfterMs: number): HttpRefusal {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpRefusal(429, code, message(seconds), {}, { "retry-after": String(seconds) });
}

const headersOf =
  (req: IncomingMessage): HeaderReader =>
  (name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
const encrypted = (req: IncomingMessage) => (req.socket as { encrypted?: boolean }).encrypted === true;

/**
 * Lets through only what the chat page itself sends: a JSON POST from this
 * origin (`checkSameOriginJson` of `execute-code-ui/server`, on a Node request).
 */
export function checkSameOriginJson(req: IncomingMessage, allowedOrigins: readonly string[] = []): void {
  checkJsonHeaders(headersOf(req), { allowedOrigins, encrypted: encrypted(req) });
}

/** The origin half of `checkSameOriginJson`, for reads (GET), deletes and uploads. */
export function checkSameOrigin(req: IncomingMessage, allowedOrigins: readonly string[] = []): void {
  checkHeaders(headersOf(req), { allowedOrigins, encrypted: encrypted(req) });
}
