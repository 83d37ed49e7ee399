// One client's idle connections cannot use up the harness's file
// descriptors: past its share, a new connection of that address is closed;
// past the total, a newcomer takes the place of the longest idle one.
import { createServer, type RequestListener } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ConnectionLimits, limitConnections } from "../../src/harness/connection-limits";

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

/** Listens with `limits`; with `handle`, it answers in place of the plain "ok". Returns the port. */
async function listenWith(limits: ConnectionLimits, handle?: RequestListener): Promise<number> {
  if (handle) server.removeAllListeners("request");
  limitConnections(server, limits);
  if (handle) server.on("request", handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A connection that has sent `head` (a request's start, as written) and nothing more. */
const sendRaw = (port: number, head: string) => {
  const socket = connect(port, "127.0.0.1").on("error", () => undefined);
  socket.write(head);
  return socket;
};

/** Waits until a newcomer's request is answered, as it is once a place is free for it. */
const newcomerAnswered = (port: number) =>
  expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${port}/`).then(
          (response) => response.text(),
          () => "refused",
        ),
      { timeout: 30_000, interval: 500 },
    )
    .toBe("ok");

describe("the harness's connection limits", () => {
  it("close an address's connections past its share, and take new ones once it has fewer", async () => {
    // Loopback is exempt by default (the server's own calls); counted here as a client's address.
    const port = await listenWith({ perAddress: 3, exempt: () => false });
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
    const port = await listenWith({ perAddress: 2 });
    const opened = await Promise.all([open(port), open(port), open(port), open(port)]);
    expect(opened.map((c) => c.closed)).toEqual([false, false, false, false]);
    for (const { socket } of opened) socket.destroy();
  });

  it("past the total, let a newcomer in by closing the longest idle connection, never one in a request", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested: () => void = () => undefined;
    const inRequest = new Promise<void>((resolve) => (requested = resolve));
    // The slow request is answered when the test says so.
    const port = await listenWith({ total: 3 }, (req, res) => {
      if (req.url !== "/slow") return void res.end("ok");
      requested();
      void released.then(() => res.end("slow ok"));
    });
    // Counted after the limits have dealt with each connection; a busy machine may take a while to accept one.
    let accepted = 0;
    server.on("connection", () => accepted++);
    const dial = async (count: number) => {
      const socket = connect(port, "127.0.0.1").on("error", () => undefined);
      await expect.poll(() => accepted, { timeout: 30_000 }).toBe(count);
      return socket;
    };

    const busy = await dial(1);
    let busyAnswer = "";
    busy.setEncoding("utf8").on("data", (chunk: string) => (busyAnswer += chunk));
    busy.write("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await inRequest;
    const oldest = await dial(2);
    const younger = await dial(3);

    // Every place is taken: the newcomer gets the place of the oldest idle connection.
    const newcomer = await dial(4);
    await expect.poll(() => oldest.destroyed, { timeout: 30_000 }).toBe(true);
    expect([younger.destroyed, newcomer.destroyed, busy.destroyed]).toEqual([false, false, false]);
    // A request is answered at once, not after the idle connections' 20 s; the next oldest idle one made room.
    const answer = await fetch(`http://127.0.0.1:${port}/`).then((response) => response.text());
    expect(answer).toBe("ok");
    await expect.poll(() => younger.destroyed, { timeout: 30_000 }).toBe(true);
    // The connection in a request was never the one to go.
    release();
    await expect.poll(() => busyAnswer, { timeout: 30_000 }).toContain("slow ok");
    for (const socket of [busy, newcomer]) socket.destroy();
  });

  it("take a kept-alive connection's place before that of one just opened, whose request may be on its way", async () => {
    const port = await listenWith({ total: 2 });
    let accepted = 0;
    server.on("connection", () => accepted++);
    const kept = sendRaw(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let keptAnswer = "";
    kept.setEncoding("utf8").on("data", (chunk: string) => (keptAnswer += chunk));
    await expect.poll(() => keptAnswer, { timeout: 30_000 }).toContain("ok");
    const fresh = connect(port, "127.0.0.1").on("error", () => undefined);
    await expect.poll(() => accepted, { timeout: 30_000 }).toBe(2);
    const newcomer = connect(port, "127.0.0.1").on("error", () => undefined);
    await expect.poll(() => kept.destroyed, { timeout: 30_000 }).toBe(true);
    expect([fresh.destroyed, newcomer.destroyed]).toEqual([false, false]);
    for (const socket of [fresh, newcomer]) socket.destroy();
  });

  it("end a response its client stopped reading, and keep one that waits on the server", async () => {
    const large: Socket[] = [];
    const port = await listenWith({ stalledRequestMs: 1000 }, (req, res) => {
      // Far more than the socket buffers hold: a client that does not read leaves most of it queued.
      if (req.url === "/large") {
        large.push(req.socket);
        return void res.end("x".repeat(64 * 1024 * 1024));
      }
      // A stream that is quiet for longer than the limit, as a model thinking, then ends.
      res.write("thinking\n");
      setTimeout(() => res.end("done\n"), 3000);
    });

    const reader = sendRaw(port, "GET /quiet HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let quiet = "";
    reader.setEncoding("utf8").on("data", (chunk: string) => (quiet += chunk));
    const stalled = sendRaw(port, "GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").pause();

    // The server's end of it: a paused client would not see the close until it reads.
    await expect.poll(() => large[0]?.destroyed, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => quiet, { timeout: 30_000 }).toContain("done");
    expect(reader.destroyed).toBe(false);
    for (const socket of [reader, stalled]) socket.destroy();
  });

  it("let a newcomer take the place of a request whose client stopped reading, before that request times out", async () => {
    const large: Socket[] = [];
    const port = await listenWith({ total: 1, stalledRequestMs: 120_000 }, (req, res) => {
      if (req.url !== "/large") return void res.end("ok");
      large.push(req.socket);
      res.end("x".repeat(64 * 1024 * 1024));
    });
    const stalled = sendRaw(port, "GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").pause();
    await expect.poll(() => large.length, { timeout: 30_000 }).toBe(1);
    // Once it has waited on its client a little while, the only place is a newcomer's to take.
    await newcomerAnswered(port);
    expect(large[0]!.destroyed).toBe(true);
    stalled.destroy();
  });

  it("keep a request whose handler has not yet read its body: the server is the one waiting", async () => {
    const port = await listenWith({ stalledRequestMs: 1000 }, (req, res) => {
      let size = 0;
      // Reads the body only after longer than the limit.
      setTimeout(
        () => req.on("data", (chunk: Buffer) => (size += chunk.length)).on("end", () => res.end(`read ${size}`)),
        3000,
      );
    });
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "x".repeat(1024 * 1024) });
    expect(await response.text()).toBe(`read ${1024 * 1024}`);
  });

  it("count a body that trickles in a byte at a time as stalled, so a newcomer can take its place", async () => {
    const bodies: Socket[] = [];
    const port = await listenWith({ total: 1, stalledRequestMs: 120_000 }, (req, res) => {
      if (req.method !== "POST") return void res.end("ok");
      bodies.push(req.socket);
      req.resume().on("end", () => res.end("got it"));
    });
    const trickler = sendRaw(port, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n{");
    const drip = setInterval(() => trickler.write(" "), 200);
    try {
      await expect.poll(() => bodies.length, { timeout: 30_000 }).toBe(1);
      await newcomerAnswered(port);
      expect(bodies[0]!.destroyed).toBe(true);
    } finally {
      clearInterval(drip);
      trickler.destroy();
    }
  });
});
