import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookie, stringifySetCookie } from "cookie";
import { jwtVerify, SignJWT } from "jose";
import { rateLimited } from "./request-guard.js";
import { createRateLimiter, type RateLimit } from "./sandbox/rate-limiter.js";

export interface ParticipantCookieOptions {
  /**
   * HMAC key for the cookie's signature.
   * @default random per start (ids then last until a restart)
   */
  secret?: Uint8Array;
  /** @default `ecu_participant` */
  cookieName?: string;
  /**
   * How long a browser keeps its id.
   * @default 30 days
   */
  maxAgeSeconds?: number;
  /**
   * New ids handed out per client address.
   * @default 10 a minute
   */
  newParticipantLimit?: RateLimit;
}

export const DEFAULT_NEW_PARTICIPANT_LIMIT: RateLimit = { max: 10, windowMs: 60_000 };

/**
 * Each browser's own participant id, in a signed, HttpOnly, SameSite=Strict
 * cookie: the client cannot choose or change it, and headers it sends say
 * nothing about who it is. A client that drops its cookie gets a new id, but
 * only so many per address and minute, so ids (each with its own
 * per-participant limits) are slow to collect.
 */
export function createParticipantCookies(options: ParticipantCookieOptions = {}) {
  const secret = options.secret ?? crypto.getRandomValues(new Uint8Array(32));
  const name = options.cookieName ?? "ecu_participant";
  const maxAge = options.maxAgeSeconds ?? 30 * 24 * 3600;
  const newIds = createRateLimiter(options.newParticipantLimit ?? DEFAULT_NEW_PARTICIPANT_LIMIT);

  async function read(req: IncomingMessage): Promise<string | null> {
    const token = parseCookie(req.headers.cookie ?? "")[name];
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
      return typeof payload.sub === "string" ? payload.sub : null;
    } catch {
      return null;
    }
  }

  return {
    /** The caller's id; a new one, set as a cookie on `res`, when it has none that this server signed. */
    async identify(req: IncomingMessage, res: ServerResponse): Promise<string> {
      const known = await read(req);
      if (known) return known;
      const limit = newIds.take(req.socket.remoteAddress ?? "unknown");
      if (!limit.allowed) {
        throw rateLimited(
          "too_many_participants",
          () => "Too many new sessions from this address; keep your cookie.",
          limit.retryAfterMs,
        );
      }
      const id = `p_${crypto.randomUUID()}`;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(id)
        .setIssuedAt()
        .setExpirationTime(`${maxAge}s`)
        .sign(secret);
      const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
      res.appendHeader(
        "set-cookie",
        stringifySetCookie({
          name,
          value: token,
          httpOnly: true,
          sameSite: "strict",
          path: "/",
          maxAge,
          secure: encrypted,
        }),
      );
      return id;
    },
  };
}
