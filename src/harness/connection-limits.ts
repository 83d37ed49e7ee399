import type { Server } from "node:http";
import { isIP, type Socket } from "node:net";
import { addressKey } from "./participant-cookie.js";

/** 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address, as a socket reports it. */
export const isLoopback = (address: string | undefined) => {
  const bare = (address ?? "").replace(/^::ffff:/i, "");
  return (isIP(bare) === 4 && bare.startsWith("127.")) || bare === "::1";
};

export interface ConnectionLimits {
  /** Open connections one address may have; past it a new one is closed at once. @default 256 */
  perAddress?: number;
  /**
   * Open connections in all, under half the process's file descriptors (a
   * download holds its file open too). Past it, a new connection closes the
   * oldest one that is not in a request.
   * @default 8192
   */
  total?: number;
  /** Addresses not counted per address. @default loopback: a proxy on this host, which stands for everyone */
  exempt?: (address: string | undefined) => boolean;
}

/**
 * Bounds a server's open connections, by address and in all: one client
 * opening thousands of idle connections would otherwise use up the
 * process's file descriptors, and every student's requests and runs with
 * them. A request's headers must come within 20 s.
 *
 * When all are taken, a newcomer makes room by closing the connection that
 * has waited longest without a request, first among those that never sent
 * one: a flood of idle connections, from wherever (behind a proxy on this
 * host, every client is loopback), then delays a student by a connection's
 * round trip, not by the 20 s until the flood's headers time out.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = {}) {
  const perAddress = limits.perAddress ?? 256;
  const total = limits.total ?? 8192;
  // Node drops a connection past maxConnections without a word; the cap is kept below instead, where an idle
  // one can make room. A closed socket leaves Node's count a tick later: the slack covers a burst in between.
  server.maxConnections = total + 1024;
  server.headersTimeout = 20_000;
  const perAddressOpen = new Map<string, number>();
  /** Connections not in a request, oldest first: those that never sent one, and those kept alive between requests. */
  const unused = new Set<Socket>();
  const between = new Set<Socket>();
  /** Connections counted against `total`: a closed one leaves at once, not when its socket is gone. */
  const counted = new Set<Socket>();
  const forget = (socket: Socket) => {
    counted.delete(socket);
    unused.delete(socket);
    between.delete(socket);
  };

  server.on("connection", (socket: Socket) => {
    // Loopback is a proxy on this host that stands for everyone: limit connections per client at that proxy, not here.
    if (!(limits.exempt ?? isLoopback)(socket.remoteAddress)) {
      const address = addressKey(socket.remoteAddress);
      const count = (perAddressOpen.get(address) ?? 0) + 1;
      if (count > perAddress) {
        socket.destroy();
        return;
      }
      perAddressOpen.set(address, count);
      socket.once("close", () => {
        const left = (perAddressOpen.get(address) ?? 1) - 1;
        if (left) perAddressOpen.set(address, left);
        else perAddressOpen.delete(address);
      });
    }
    if (counted.size >= total) {
      const idle = first(unused) ?? first(between);
      if (!idle) {
        socket.destroy();
        return;
      }
      forget(idle);
      idle.destroy();
    }
    counted.add(socket);
    unused.add(socket);
    socket.once("close", () => forget(socket));
  });

  server.on("request", (req, res) => {
    const socket = req.socket;
    unused.delete(socket);
    between.delete(socket);
    res.once("close", () => {
      if (counted.has(socket) && !socket.destroyed) between.add(socket);
    });
  });
}

const first = <T>(set: Set<T>): T | undefined => set.values().next().value;
