import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { isLoopback } from "./client-address.js";
import { addressKey } from "./participant-cookie.js";

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
  /**
   * A request that waits on its client (a body that does not come, a
   * response it does not read) is ended once nothing has moved for this long.
   * @default 30 s
   */
  stalledRequestMs?: number;
}

/** A new connection gets this long to send its request before a newcomer may take its place. */
const FIRST_REQUEST_GRACE_MS = 2000;
/** A request whose client has neither sent nor read anything this long may make room for a newcomer. */
const STALLED_EVICTABLE_MS = 2000;
/**
 * What a request must move, read or sent, to count as moving: a body that
 * trickles in a byte a second, or a reader that takes a byte a second, is
 * as stalled as one that moves nothing, and holds its place as long.
 */
const MOVING_BYTES = 1024;
/** What of a response has left for its client: written, less what still waits in the socket's buffer. */
const sentBy = (socket: Socket) => socket.bytesWritten - socket.writableLength;

/**
 * Bounds a server's open connections, by address and in all: one client
 * opening thousands of connections would otherwise use up the process's
 * file descriptors, and every student's requests and runs with them. A
 * request's headers must come within 20 s, and a client must keep reading
 * what it asked for.
 *
 * When all are taken, a newcomer makes room by closing, the longest waiting
 * first: a connection that has sent nothing for 2 s, else one kept alive
 * between requests, else one whose request has waited on its client (a body
 * that does not come, a response it does not read) for 2 s without moving
 * 1 KiB, else the youngest unused one. A flood of connections, from
 * wherever (behind a proxy on this host, every client is loopback), then
 * delays a student by a round trip, not by the time until the flood's
 * requests time out.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = {}) {
  const perAddress = limits.perAddress ?? 256;
  const total = limits.total ?? 8192;
  const stalledMs = limits.stalledRequestMs ?? 30_000;
  // Node drops a connection past maxConnections without a word; the cap is kept below instead, where an idle
  // one can make room. A closed socket leaves Node's count a tick later: the slack covers a burst in between.
  server.maxConnections = total + 1024;
  server.headersTimeout = 20_000;
  const perAddressOpen = new Map<string, number>();
  /** Connections that never sent a request, with when they came, oldest first. */
  const unused = new Map<Socket, number>();
  /** Connections kept alive between requests, the longest waiting first. */
  const between = new Set<Socket>();
  /**
   * Connections in a request (more than one when pipelined): the request, the bytes read and sent when
   * it last moved (MOVING_BYTES), and since when it has waited on its client without moving.
   */
  const busy = new Map<
    Socket,
    { requests: number; req: IncomingMessage; read: number; written: number; since: number }
  >();
  /** Connections in a request that have waited on their client for STALLED_EVICTABLE_MS, the longest first. */
  const stalled = new Set<Socket>();
  /** Connections counted against `total`: a closed one leaves at once, not when its socket is gone. */
  const counted = new Set<Socket>();
  const forget = (socket: Socket) => {
    counted.delete(socket);
    unused.delete(socket);
    between.delete(socket);
    busy.delete(socket);
    stalled.delete(socket);
  };
  const idlest = (now: number): Socket | undefined => {
    const [oldest, came] = unused.entries().next().value ?? [];
    if (oldest && now - came! >= FIRST_REQUEST_GRACE_MS) return oldest;
    return between.values().next().value ?? stalled.values().next().value ?? oldest;
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
    const now = performance.now();
    if (counted.size >= total) {
      const idle = idlest(now);
      if (!idle) {
        socket.destroy();
        return;
      }
      forget(idle);
      idle.destroy();
    }
    counted.add(socket);
    unused.set(socket, now);
    socket.once("close", () => forget(socket));
  });

  server.on("request", (req, res) => {
    const socket = req.socket;
    unused.delete(socket);
    between.delete(socket);
    if (!counted.has(socket)) return;
    const seen = busy.get(socket);
    const moved = { req, read: socket.bytesRead, written: sentBy(socket), since: performance.now() };
    if (seen) Object.assign(seen, moved, { requests: seen.requests + 1 });
    else busy.set(socket, { ...moved, requests: 1 });
    stalled.delete(socket);
    res.once("close", () => {
      const left = busy.get(socket);
      if (!left || --left.requests > 0) return;
      busy.delete(socket);
      stalled.delete(socket);
      if (!socket.destroyed) between.add(socket);
    });
  });

  // A request waits on its client while its body has not all come (and the handler has room for more of it)
  // or its response has bytes queued for it. One that waits on the server (a quiet stream, a model thinking,
  // a handler not yet reading the body) has neither, and stays.
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, seen] of busy) {
        const [read, written] = [socket.bytesRead, sentBy(socket)];
        const { req } = seen;
        const bodyToCome = !req.complete && req.readableLength < req.readableHighWaterMark;
        const waiting = bodyToCome || socket.writableLength > 0;
        if (!waiting || read - seen.read >= MOVING_BYTES || written - seen.written >= MOVING_BYTES) {
          Object.assign(seen, { read, written, since: now });
          stalled.delete(socket);
        } else if (now - seen.since >= stalledMs) {
          forget(socket);
          socket.destroy();
        } else if (now - seen.since >= STALLED_EVICTABLE_MS) stalled.add(socket);
      }
    },
    Math.min(1000, stalledMs / 3),
  );
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
}
