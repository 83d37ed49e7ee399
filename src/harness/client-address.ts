import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address, as a socket reports it. */
export const isLoopback = (address: string | undefined) => {
  const bare = (address ?? "").replace(/^::ffff:/i, "");
  return (isIP(bare) === 4 && bare.startsWith("127.")) || bare === "::1";
};

/**
 * The address a request comes from, for limits per client. With
 * `trustProxy`, a socket from loopback is a proxy on this host: its client
 * is the address the proxy added last to `X-Forwarded-For`, as nginx
 * (`$proxy_add_x_forwarded_for`) and Caddy do; entries before it are the
 * client's own words and are not read. Without it (the default), and from
 * any other peer, the header is ignored: a plain forwarder on this host
 * (socat, `ssh -R`, `kubectl port-forward`) would pass on whatever the
 * client wrote.
 */
export function clientAddress(req: IncomingMessage, trustProxy = false): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!trustProxy || !isLoopback(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const named = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim() ?? "";
  return isIP(named) ? named : peer;
}
