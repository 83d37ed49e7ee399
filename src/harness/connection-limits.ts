import type { Server } from "node:http";
import { addressKey } from "./participant-cookie.js";

export interface ConnectionLimits {
  /** Open connections one address may have; past it a new one is closed at once. @default 256 */
  perAddress?: number;
  /** Open connections in all, well under the process's file descriptors. @default 8192 */
  total?: number;
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
