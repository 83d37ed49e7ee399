// Work that holds the server's thread for tens of milliseconds (a large
// JSON body's parse, a large chat's read) goes one piece an event-loop
// turn: other requests are answered between them, instead of after all of
// them; and a body shaped as no request of the kit's is, is refused unread.
import { describe, expect, it } from "vitest";
import { readJsonBytes } from "../../src/server/http/http";
import { MAX_WAITING_TURNS } from "../../src/server/http/turns";
import { chatServer } from "./chat/fixtures";
import { turnsBetween, withTicks } from "./event-loop-turns";

/** A body of many small objects, the costliest kind to parse. */
const body = (kib: number) => {
  const text = JSON.stringify(Array.from({ length: kib * 100 }, (_, i) => ({ [i]: 0 })));
  return (async function* () {
    yield new TextEncoder().encode(text);
  })();
};

describe("large JSON bodies", () => {
  it("parse one a turn, with the event loop's other work between them", async () => {
    const seen = await withTicks((events) =>
      Promise.all(
        Array.from({ length: 4 }, (_, n) =>
          readJsonBytes(body(256), 4 * 1024 * 1024).then(() => events.push(`body ${n}`)),
        ),
      ),
    );
    expect(seen.filter((event) => event !== "tick")).toEqual(["body 0", "body 1", "body 2", "body 3"]);
    // Never two parses without a turn of other work between them.
    expect(turnsBetween(seen)).toBe(true);
  });

  it("still refuse what is not JSON, and take the next body after it", async () => {
    const broken = (async function* () {
      yield new TextEncoder().encode(`[${"1,".repeat(40_000)}`);
    })();
    await expect(readJsonBytes(broken, 1024 * 1024)).rejects.toMatchObject({ status: 400 });
    await expect(readJsonBytes(body(100), 4 * 1024 * 1024)).resolves.toHaveLength(10_000);
  });
});

describe("a large body's shape", () => {
  const bytes = (text: string) =>
    (async function* () {
      yield new TextEncoder().encode(text);
    })();

  it("is refused before it is parsed when it nests deeper than a request of the kit's does", async () => {
    await expect(readJsonBytes(bytes(`${"[".repeat(100_000)}${"]".repeat(100_000)}`), 4 << 20)).rejects.toMatchObject({
      status: 400,
      body: { error: "invalid_json", message: expect.stringContaining("nests deeper than 64 levels") },
    });
  });

  it("is refused when it holds more objects than a request of the kit's does", async () => {
    await expect(
      readJsonBytes(bytes(JSON.stringify(Array.from({ length: 150_000 }, () => ({})))), 4 << 20),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it("counts no bracket inside a string, escaped quotes included", async () => {
    const text = JSON.stringify({ messages: [{ text: `"\\[${"[{".repeat(200_000)}` }] });
    await expect(readJsonBytes(bytes(text), 4 << 20)).resolves.toEqual(JSON.parse(text));
  });
});

describe("reads of a chat", () => {
  it("take turns when many come at once", async () => {
    const { call } = await chatServer({ plan: () => [] });
    expect((await call("POST", "/api/chats", { id: "c" })).status).toBe(201);
    const seen = await withTicks((events) =>
      Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          call("GET", "/api/chats/c").then((read) => events.push(`read ${n}: ${read.status}`)),
        ),
      ),
    );
    expect(seen.filter((event) => event !== "tick")).toEqual(Array.from({ length: 6 }, (_, n) => `read ${n}: 200`));
    expect(turnsBetween(seen)).toBe(true);
  });
});

describe("turns shared between students", () => {
  it("give a classmate's read the next turn, not a place behind one student's many", async () => {
    const { call } = await chatServer({ plan: () => [] });
    expect((await call("POST", "/api/chats", { id: "mine" }, "mallory")).status).toBe(201);
    expect((await call("POST", "/api/chats", { id: "theirs" }, "ada")).status).toBe(201);
    const order: string[] = [];
    const many = Array.from({ length: 6 }, (_, n) =>
      call("GET", "/api/chats/mine", undefined, "mallory").then((read) => order.push(`mallory ${n}: ${read.status}`)),
    );
    const classmate = call("GET", "/api/chats/theirs", undefined, "ada").then((read) =>
      order.push(`ada: ${read.status}`),
    );
    await Promise.all([...many, classmate]);
    // Mallory's first read had started; Ada's is next, before Mallory's other five.
    expect(order).toEqual([
      "mallory 0: 200",
      "ada: 200",
      ...Array.from({ length: 5 }, (_, n) => `mallory ${n + 1}: 200`),
    ]);
  });

  it("refuse a student's read past the turns they already have waiting, and answer the rest", async () => {
    const { call } = await chatServer({ plan: () => [] });
    expect((await call("POST", "/api/chats", { id: "mine" }, "mallory")).status).toBe(201);
    const reads = await Promise.all(
      Array.from({ length: MAX_WAITING_TURNS + 3 }, () => call("GET", "/api/chats/mine", undefined, "mallory")),
    );
    const refused = reads.filter((read) => read.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body).toMatchObject({ error: "requests_in_progress", message: expect.stringContaining("wait") });
    expect(reads.filter((read) => read.status === 200).length).toBeGreaterThanOrEqual(MAX_WAITING_TURNS);
    // Once they are answered, the student reads again.
    expect((await call("GET", "/api/chats/mine", undefined, "mallory")).status).toBe(200);
  });

  it("never refuse work of no known sender, which shares one line", async () => {
    const parsed = await Promise.all(
      Array.from({ length: MAX_WAITING_TURNS + 4 }, () => readJsonBytes(body(64), 4 << 20)),
    );
    expect(parsed).toHaveLength(MAX_WAITING_TURNS + 4);
  });

  it("parse large bodies of different senders in rotation", async () => {
    const order: string[] = [];
    await Promise.all([
      ...Array.from({ length: 3 }, (_, n) =>
        readJsonBytes(body(128), 4 << 20, 0, "mallory").then(() => order.push(`mallory ${n}`)),
      ),
      readJsonBytes(body(128), 4 << 20, 0, "ada").then(() => order.push("ada")),
    ]);
    expect(order).toEqual(["mallory 0", "ada", "mallory 1", "mallory 2"]);
  });
});
