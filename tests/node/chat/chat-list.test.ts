// A participant's chats as a list: what an assistant-ui thread list reads
// (GET /api/chats) and changes (PATCH and DELETE /api/chats/:id).
import { describe, expect, it } from "vitest";
import { chatServer } from "./fixtures";

async function server() {
  const time = { now: 1_000_000 };
  const chats = await chatServer({ plan: () => [], endpoints: { now: () => time.now } });
  return { ...chats, time };
}

const request = (
  chats: Awaited<ReturnType<typeof server>>["chats"],
  method: string,
  path: string,
  body?: unknown,
  participantId = "alice",
) =>
  chats.handle(
    new Request(`http://chat.test${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { participantId },
  ) as Promise<Response>;

describe("GET /api/chats", () => {
  it("lists the caller's chats, the most recently changed first, each titled by its first message", async () => {
    const { call, time } = await server();
    await call("POST", "/api/chats", { id: "older" });
    time.now += 1000;
    await call("POST", "/api/chats/older/messages", { text: "```python\nprint(2 ** 10)\n```" });
    time.now += 1000;
    await call("POST", "/api/chats", { id: "newer" });
    await call("POST", "/api/chats/newer/messages", { text: "\nWhat is a prime number?\nAnd 91?" });
    time.now += 1000;
    await call("POST", "/api/chats", { id: "bob-s" }, "bob");

    const listed = await call("GET", "/api/chats");
    expect(listed.status).toBe(200);
    expect(listed.body.chats).toEqual([
      {
        id: "newer",
        title: "What is a prime number?",
        status: "idle",
        archived: false,
        created_at: 1_002_000,
        updated_at: 1_002_000,
      },
      {
        id: "older",
        title: "print(2 ** 10)",
        status: "idle",
        archived: false,
        created_at: 1_000_000,
        updated_at: 1_001_000,
      },
    ]);
    expect(
      (await call("GET", "/api/chats", undefined, "bob")).body.chats.map((chat: { id: string }) => chat.id),
    ).toEqual(["bob-s"]);
  });

  it("titles a chat with its words, not Markdown's marks: no heading's #, no code's comment mark", async () => {
    const { call } = await server();
    const cases = [
      ["## Primes below 100\nList them.", "Primes below 100"],
      ["```python\n# squares of 1 to 10\nprint([n * n for n in range(1, 11)])\n```", "squares of 1 to 10"],
      ["```python\n\nprint(1)\n```\n> Why does this print 1?", "Why does this print 1?"],
      ["1. Load scores.csv\n2. Plot the mean", "Load scores.csv"],
    ];
    for (const [n, [text]] of cases.entries()) {
      await call("POST", "/api/chats", { id: `c${n}` });
      await call("POST", `/api/chats/c${n}/messages`, { text });
    }
    const titles = Object.fromEntries(
      (await call("GET", "/api/chats")).body.chats.map((chat: { id: string; title: string }) => [chat.id, chat.title]),
    );
    expect(cases.map((_, n) => titles[`c${n}`])).toEqual(cases.map(([, title]) => title));
  });

  it("keeps the first title when later messages come, and lists at most `limit` chats", async () => {
    const { call, time } = await server();
    await call("POST", "/api/chats", { id: "c" });
    await call("POST", "/api/chats/c/messages", { text: "first question" });
    await call("POST", "/api/chats/c/messages", { text: "second question" });
    time.now += 1;
    await call("POST", "/api/chats", { id: "d" });
    expect((await call("GET", "/api/chats?limit=1")).body.chats).toEqual([
      expect.objectContaining({ id: "d", title: null }),
    ]);
    expect((await call("GET", "/api/chats")).body.chats[1]).toMatchObject({ id: "c", title: "first question" });
  });
});

describe("PATCH and DELETE /api/chats/:id", () => {
  it("renames and archives a chat; a name given before the first message stays", async () => {
    const { chats, call } = await server();
    await call("POST", "/api/chats", { id: "c" });
    expect((await request(chats, "PATCH", "/api/chats/c", { title: "  Primes  " })).status).toBe(204);
    await call("POST", "/api/chats/c/messages", { text: "What is a prime?" });
    expect((await request(chats, "PATCH", "/api/chats/c", { archived: true })).status).toBe(204);
    expect((await call("GET", "/api/chats")).body.chats).toEqual([
      expect.objectContaining({ id: "c", title: "Primes", archived: true }),
    ]);
    expect((await request(chats, "PATCH", "/api/chats/c", { archived: false, title: null })).status).toBe(204);
    expect((await call("GET", "/api/chats")).body.chats).toEqual([
      expect.objectContaining({ id: "c", title: null, archived: false }),
    ]);
  });

  it("a rename while a run is ending never costs the run its stored end", async () => {
    const { chats, call, store } = await server();
    await call("POST", "/api/chats", { id: "c" });
    const running = chats.handle(
      new Request("http://chat.test/api/chats/c/messages", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ text: "hi" }),
      }),
      { participantId: "alice" },
    );
    expect((await request(chats, "PATCH", "/api/chats/c", { title: "Greeting" })).status).toBe(204);
    expect((await (await running)!.json()).status).toBe("idle");
    expect((await store.get("alice", "c"))!.messages).toHaveLength(2);
    expect((await call("GET", "/api/chats")).body.chats[0]).toMatchObject({ title: "Greeting" });
  });

  it("refuses a bad change with 400, and another participant's chat with 404", async () => {
    const { chats, call } = await server();
    await call("POST", "/api/chats", { id: "c" });
    for (const body of [{}, { title: 7 }, { title: "x".repeat(201) }, { archived: "yes" }]) {
      expect((await request(chats, "PATCH", "/api/chats/c", body)).status).toBe(400);
    }
    expect((await request(chats, "PATCH", "/api/chats/c", { title: "mine" }, "bob")).status).toBe(404);
    expect((await request(chats, "DELETE", "/api/chats/c", undefined, "bob")).status).toBe(404);
    expect((await call("GET", "/api/chats/c")).status).toBe(200);
    expect((await request(chats, "PUT", "/api/chats/c", {})).status).toBe(405);
  });

  it("deletes a chat for good: it is neither listed nor found", async () => {
    const { chats, call } = await server();
    await call("POST", "/api/chats", { id: "c" });
    await call("POST", "/api/chats/c/messages", { text: "hello" });
    expect((await request(chats, "DELETE", "/api/chats/c")).status).toBe(204);
    expect((await call("GET", "/api/chats/c")).status).toBe(404);
    expect((await call("GET", "/api/chats")).body.chats).toEqual([]);
    expect((await request(chats, "DELETE", "/api/chats/c")).status).toBe(404);
  });
});
