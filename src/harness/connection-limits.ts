import type { Server } from "node:http";
import { isIP } from "node:net";
import { addressKey } from "./participant-cookie.js";

/** 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address, as a socket reports it. */
export const isLoopback = (address: string | undefined) => {
  const bare = (address ?? "").replace(/^::ffff:/i, "");
  return (isIP(bare) === 4 && bare.startsWith("127.")) || bare === "::1";
};

export interface ConnectionLimits {
  /** Open connections one address may have; past it a new one is closed at once. @default 256 */
  perAddress?: number;
  /** Open connections in all, well under the process's file descriptors. @default 8192 */
  total?: number;
  /** Addresses not counted per address. @default loopback: this server's own calls, and a proxy on this host */
  exempt?: (address: string | undefined) => boolean;
}

/**
 * Bounds a server's open connections, by address and in all: one client
 * opening thousands of idle connections would otherwise use up the
 * process's file descriptors, and every student's requests and runs with
 * them. A request's headers must come within 20 s.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = {}) {
  const perAddress = limits.perAddress ?? 256;
  server.maxConnections = limits.total ?? 8192;
  server.headersTimeout = 20_000;
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    // Loopback is this server's own calls to its sandbox, and a proxy on this host that stands for
    // everyone: limit connections at that proxy, not here.
    if ((limits.exempt ?? isLoopback)(socket.remoteAddress)) return;
    const address = addressKey(socket.remoteAddress);
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left) open.set(address, left);
      else open.delete(address);
    });
  });
}
