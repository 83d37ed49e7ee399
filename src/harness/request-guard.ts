import type { IncomingMessage } from "node:http";
import { HttpRefusal, mediaTypeOf } from "../server/http.js";

/** A 429 for a caller over a rate limit, telling it in whole seconds (and `Retry-After`) when to come back. */
export function rateLimited(code: string, message: (seconds: number) => string, retryAfterMs: number): HttpRefusal {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpRefusal(429, code, message(seconds), {}, { "retry-after": String(seconds) });
}

/** The origin this server is reached at, from the request's own Host header. */
function ownOrigin(req: IncomingMessage): string | null {
  const host = req.headers.host;
  if (!host) return null;
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  return `${encrypted ? "https" : "http"}://${host}`;
}

/**
 * Lets through only what the chat page itself sends: a JSON POST from this
 * origin. A form or a `text/plain` body from another site (which needs no
 * CORS preflight) is refused, and so is any request that a browser marks as
 * coming from another origin. Requests without an Origin header (curl, a
 * server) pass: they carry no one else's cookie.
 */
export function checkSameOriginJson(req: IncomingMessage, allowedOrigins: readonly string[] = []): void {
  if (mediaTypeOf(req.headers["content-type"]) !== "application/json") {
    throw new HttpRefusal(415, "unsupported_media_type", "Send the request as application/json.");
  }
  checkSameOrigin(req, allowedOrigins);
}

/**
 * The origin half of `checkSameOriginJson`, for reads (GET): a request a
 * browser marks as coming from another origin or site is refused.
 */
export function checkSameOrigin(req: IncomingMessage, allowedOrigins: readonly string[] = []): void {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && (origin === ownOrigin(req) || allowedOrigins.includes(origin));
  if (origin !== undefined && !allowed) {
    throw new HttpRefusal(403, "forbidden_origin", "Requests from other origins are not accepted.");
  }
  const site = req.headers["sec-fetch-site"];
  if (!allowed && site !== undefined && site !== "same-origin" && site !== "none") {
    throw new HttpRefusal(403, "forbidden_origin", "Requests from other sites are not accepted.");
  }
}
