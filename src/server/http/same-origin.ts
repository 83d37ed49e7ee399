import { HttpRefusal, mediaTypeOf } from "./http.js";

/** A request's headers, however the server holds them. */
export type HeaderReader = (name: string) => string | null | undefined;

export interface SameOriginOptions {
  /** Origins besides the server's own that may send requests (a dev server on another port). */
  allowedOrigins?: readonly string[];
  /**
   * Take the origin the browser used from `X-Forwarded-Host` and
   * `X-Forwarded-Proto`: only behind a proxy that sets them (and drops a
   * client's own). Off, a proxy must pass the `Host` header on.
   * @default false
   */
  trustProxy?: boolean;
  /** Whether the connection itself is TLS, where the proxy headers are not trusted. */
  encrypted?: boolean;
}

const first = (value: string | null | undefined) => value?.split(",")[0]?.trim() || undefined;

/**
 * The origin the browser reached this server at: from the `Host` header the
 * browser sent (not the URL a framework rebuilt, which Next.js gives as
 * `localhost`), or a trusted proxy's `X-Forwarded-*`.
 */
export function ownOrigin(header: HeaderReader, options: SameOriginOptions = {}): string | null {
  const host = (options.trustProxy && first(header("x-forwarded-host"))) || header("host");
  if (!host) return null;
  const scheme = (options.trustProxy && first(header("x-forwarded-proto"))) || (options.encrypted ? "https" : "http");
  return `${scheme}://${host}`;
}

/**
 * Lets through only what a page of this origin sends: a request a browser
 * marks as coming from another origin or site (`Origin`,
 * `Sec-Fetch-Site`) is refused (403). Requests with neither (curl, a
 * server) pass: they carry no one else's cookie.
 */
export function checkSameOrigin(header: HeaderReader, options: SameOriginOptions = {}): void {
  const origin = header("origin") ?? undefined;
  const allowed =
    origin !== undefined && (origin === ownOrigin(header, options) || !!options.allowedOrigins?.includes(origin));
  if (origin !== undefined && !allowed) {
    throw new HttpRefusal(403, "forbidden_origin", "Requests from other origins are not accepted.");
  }
  const site = header("sec-fetch-site") ?? undefined;
  if (!allowed && site !== undefined && site !== "same-origin" && site !== "none") {
    throw new HttpRefusal(403, "forbidden_origin", "Requests from other sites are not accepted.");
  }
}

/**
 * `checkSameOrigin` for a request with a JSON body: a form or a
 * `text/plain` body from another site (which needs no CORS preflight) is
 * refused (415) before its origin is even looked at.
 */
export function checkSameOriginJson(header: HeaderReader, options: SameOriginOptions = {}): void {
  if (mediaTypeOf(header("content-type")) !== "application/json") {
    throw new HttpRefusal(415, "unsupported_media_type", "Send the request as application/json.");
  }
  checkSameOrigin(header, options);
}
