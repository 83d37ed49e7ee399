// One client's idle connections cannot use up the harness's file
// descriptors: past its share, a new connection of that address is closed.
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { limitConnections } from "../../src/harness/connection-limits";

let server = createServer();
beforeEach(() => {
  server = createServer((_, res) => res.end("ok"));
});
afterEach(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A connection, and whether the server closed it within a moment. */
async function open(port: number): Promise<{ socket: Socket; closed: boolean }> {
  const socket = connect(port, "127.0.0.1");
  const closed = await new Promise<boolean>((resolve) => {
    socket.once("close", () => resolve(true));
    socket.once("connect", () => setTimeout(() => resolve(socket.destroyed), 1000));
  });
  return { socket, closed };
}

describe("the harness's connection limits", () => {
  it("close an address's connections past its share, and take new ones once it has fewer", async () => {
    // Loopback is exempt by default (the server's own calls); counted here as a client's address.
    limitConnections(server, { perAddress: 3, exempt: () => false });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const first = await Promise.all([open(port), open(port), open(port)]);
    expect(first.map((c) => c.closed)).toEqual([false, false, false]);
    const fourth = await open(port);
    expect(fourth.closed).toBe(true);
    first[0]!.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await open(port);
    expect(again.closed).toBe(false);
    for (const { socket } of [...first, again]) socket.destroy();
  });

  it("do not count loopback, which is the server's own calls to its sandbox and a proxy on its host", async () => {
    limitConnections(server, { perAddress: 2 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const opened = await Promise.all([open(port), open(port), open(port), open(port)]);
    expect(opened.map((c) => c.closed)).toEqual([false, false, false, false]);
    for (const { socket } of opened) socket.destroy();
  });
});
