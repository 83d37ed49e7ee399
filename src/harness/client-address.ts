import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address, as a socket reports it. */
export const isLoopback = (address: string | undefined) => {
  const bare = (address ?? "").replace(/^::ffff:/i, "");
  return (isIP(bare) === 4 && bare.startsWith("127.")) || bare === "::1";
};

/**
 * The address a request comes from, for limits per client. A socket from
 * loopback is a proxy on this host (or a process of the host itself): its
 * client is the address the proxy added last to `X-Forwarded-For`, as nginx
 * (`$proxy_add_x_forwarded_for`) and Caddy do; entries before it are the
 * client's own words and are not read. A header from any other peer is
 * ignored, so only a proxy on this host can name a client.
 */
export function clientAddress(req: IncomingMessage): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!isLoopback(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const named = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim() ?? "";
  return isIP(named) ? named : peer;
}
