import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookie, stringifySetCookie } from "cookie";
import { jwtVerify, SignJWT } from "jose";
import { clientAddress } from "./client-address.js";
import { rateLimited } from "./request-guard.js";
import { createRateLimiter, type RateLimit } from "../sandbox/rate-limiter.js";

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
   * New ids handed out per client address (an IPv6 address counts by its
   * /64, which one host or site has whole).
   * @default 10 a minute
   */
  newParticipantLimit?: RateLimit;
  /**
   * New ids handed out per client address over a longer window, on top of
   * `newParticipantLimit`: at 10 a minute alone, one address could collect
   * 14 400 ids a day, each with its own share of the chat store. 200 a day
   * lets a lecture of 150 students behind one campus NAT in, some on two
   * devices, while one address then holds at most 200 participants' shares
   * (1 GB of chats at the harness's 5 MiB each, half its 2 GiB store). Every
   * browser behind a proxy shares the proxy's address: raise it there, or
   * give the ids from your own sign-in (`getParticipantId`).
   * @default 200 a day
   */
  newParticipantDailyLimit?: RateLimit;
  /**
   * Count a request from a proxy on this host by the client it names last in
   * `X-Forwarded-For` (see the harness's `trustProxy`).
   * @default false
   */
  trustProxy?: boolean;
}

export const DEFAULT_NEW_PARTICIPANT_LIMIT: RateLimit = { max: 10, windowMs: 60_000 };
export const DEFAULT_NEW_PARTICIPANT_DAILY_LIMIT: RateLimit = { max: 200, windowMs: 86_400_000 };

/**
 * The key a client address is counted under: an IPv4 address (mapped into
 * IPv6 or not) as it is, an IPv6 address by its /64, since one host or site
 * gets a whole /64 and could otherwise take a new address for each id.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return "unknown";
  const bare = address.replace(/%.*$/, "").toLowerCase();
  if (!bare.includes(":")) return bare;
  const [head = "", tail] = bare.split("::");
  // A dotted IPv4 tail (::ffff:192.0.2.1) is the last two groups.
  const groups = (part: string) =>
    part
      ? part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16) || 0];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map((octet) => Number(octet) & 0xff);
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<number>(Math.max(0, 8 - front.length - back.length)).fill(0), ...back];
  // An IPv4-mapped address, dotted or in hex (::ffff:cb00:7105), is its IPv4 address.
  if (all.length === 8 && all.slice(0, 5).every((group) => group === 0) && all[5] === 0xffff) {
    return [all[6]! >> 8, all[6]! & 0xff, all[7]! >> 8, all[7]! & 0xff].join(".");
  }
  return `${all
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

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
  const newIdsToday = createRateLimiter(options.newParticipantDailyLimit ?? DEFAULT_NEW_PARTICIPANT_DAILY_LIMIT);

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
      const address = addressKey(clientAddress(req, options.trustProxy));
      const limit = newIds.take(address);
      if (!limit.allowed) {
        throw rateLimited(
          "too_many_participants",
          () => "Too many new sessions from this address; keep your cookie.",
          limit.retryAfterMs,
        );
      }
      // Counted only once the minute's limit let it through, so refused attempts do not spend the day's.
      const today = newIdsToday.take(address);
      if (!today.allowed) {
        throw rateLimited(
          "too_many_participants",
          (seconds) =>
            `Too many new sessions from this address today; keep your cookie, or try again in ${seconds >= 3600 ? `${Math.ceil(seconds / 3600)} h` : `${Math.ceil(seconds / 60)} min`}.`,
          today.retryAfterMs,
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
