// Request bodies on their way in share a bounded memory: one student, or one
// address with many cookies, holding bodies open cannot take the server's
// memory, and their bodies do not keep other students' messages out.
import { describe, expect, it } from "vitest";
import { createChatEndpoints, createSqliteChatStore, type ChatEndpointsOptions } from "../../../src/server";
import { plannedModel, serverTools } from "./fixtures";

/** A message body sent by hand: its opening, then what the test says, then its end. */
function slowMessage() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
      given.enqueue(new TextEncoder().encode('{"text":"'));
    },
  });
  return {
    stream,
    send: (chars: number) => controller.enqueue(new TextEncoder().encode("x".repeat(chars))),
    end: () => {
      controller.enqueue(new TextEncoder().encode('"}'));
      controller.close();
    },
  };
}

async function chatsWith(bodyBudget: ChatEndpointsOptions["bodyBudget"]) {
  const chats = createChatEndpoints({
    store: await createSqliteChatStore({ path: ":memory:" }),
    model: plannedModel(() => []).model,
    tools: () => serverTools([]),
    limits: { maxBodyBytes: 10_000 },
    bodyBudget,
  });
  const headers = { "content-type": "application/json", accept: "application/json" };
  const handle = async (request: Request, participantId: string, client: string) => {
    const response = await chats.handle(request, { participantId, client });
    return { status: response!.status, body: (await response!.json()) as Record<string, unknown> };
  };
  /** Makes the participant's chat `c` (or another). */
  const start = async (participantId: string, client: string, chatId = "c") =>
    expect(
      (
        await handle(
          new Request("http://chat.test/api/chats", { method: "POST", headers, body: JSON.stringify({ id: chatId }) }),
          participantId,
          client,
        )
      ).status,
    ).toBe(201);
  /** Posts to the participant's chat `c` (or another), the body as given. */
  const post = (participantId: string, client: string, body: string | ReadableStream<Uint8Array>, chatId = "c") =>
    handle(
      new Request(`http://chat.test/api/chats/${chatId}/messages`, {
        method: "POST",
        headers,
        body,
        ...(typeof body === "string" ? {} : { duplex: "half" }),
      } as RequestInit),
      participantId,
      client,
    );
  return { start, post };
}

/** Lets the endpoint read what was sent so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the memory request bodies share", () => {
  it("holds one student's unfinished bodies to their share, and others still post", async () => {
    const { start, post } = await chatsWith({ graceMs: 60_000, minBytesPerSecond: 1 });
    // A chat answers one message at a time: Mallory holds a body open for each of two chats.
    for (const chatId of ["c", "d"]) await start("mallory", "198.51.100.9", chatId);
    await start("ada", "203.0.113.7");
    const held = [slowMessage(), slowMessage()];
    const answers = held.map((body, i) => post("mallory", "198.51.100.9", body.stream, ["c", "d"][i]));
    for (const body of held) body.send(9_000);
    await settle();
    // Two bodies' worth is Mallory's share: a third is refused once its bytes would pass it.
    const third = slowMessage();
    const refused = post("mallory", "198.51.100.9", third.stream);
    third.send(5_000);
    expect(await refused).toMatchObject({
      status: 429,
      body: {
        error: "requests_in_progress",
        message: "Your other messages on their way are as much as one student may send at once; wait for them.",
      },
    });
    expect((await post("ada", "203.0.113.7", '{"text":"hello"}')).status).toBe(200);
    // Mallory's held bodies are read in full once they end.
    for (const body of held) body.end();
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200]);
    expect((await post("mallory", "198.51.100.9", '{"text":"and now"}')).status).toBe(200);
  });

  it("holds one address's bodies to its share, however many students it has", async () => {
    const { start, post } = await chatsWith({ graceMs: 60_000, minBytesPerSecond: 1, maxClientBytesInFlight: 25_000 });
    const cookies = ["m1", "m2", "m3"];
    for (const id of [...cookies, "ada"]) await start(id, id === "ada" ? "203.0.113.7" : "198.51.100.9");
    const held = cookies.map(() => slowMessage());
    const answers = held.map((body, i) => post(cookies[i]!, "198.51.100.9", body.stream));
    for (const body of held) body.send(9_000);
    const statuses = await Promise.race([
      Promise.all(answers).then((all) => all.map((answer) => answer.status)),
      settle().then(() => null),
    ]);
    // The third body passed the address's 25 000 bytes and was refused; the first two wait for their ends.
    expect(statuses).toBeNull();
    expect(await answers[2]).toMatchObject({
      status: 429,
      body: { message: "Many messages from your network are on their way already; try again in a moment." },
    });
    expect((await post("ada", "203.0.113.7", '{"text":"hello"}')).status).toBe(200);
    for (const body of held.slice(0, 2)) body.end();
    expect((await Promise.all(answers.slice(0, 2))).map((answer) => answer.status)).toEqual([200, 200]);
  });

  it("answers 503 while all bodies together hold the whole budget, and takes messages again once they end", async () => {
    const { start, post } = await chatsWith({ graceMs: 60_000, minBytesPerSecond: 1, maxBytesInFlight: 20_000 });
    for (const id of ["p1", "p2", "ada"]) await start(id, id);
    const held = [slowMessage(), slowMessage()];
    const answers = held.map((body, i) => post(`p${i + 1}`, `p${i + 1}`, body.stream));
    for (const body of held) body.send(9_000);
    await settle();
    const refused = await post("ada", "ada", `{"text":"${"y".repeat(3_000)}"}`);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe("The server is taking many messages at once; try again in a moment.");
    for (const body of held) body.end();
    await Promise.all(answers);
    expect((await post("ada", "ada", `{"text":"${"y".repeat(3_000)}"}`)).status).toBe(200);
  });

  it("cuts a body that stops arriving, says so, and frees what it held", async () => {
    const { start, post } = await chatsWith({ graceMs: 200, maxBytesInFlight: 12_000 });
    await start("mallory", "198.51.100.9");
    await start("ada", "203.0.113.7");
    const stopped = slowMessage();
    const cut = post("mallory", "198.51.100.9", stopped.stream);
    stopped.send(9_000);
    expect(await cut).toMatchObject({
      status: 408,
      body: {
        error: "request_too_slow",
        message: "The message arrived too slowly and was not read; check the connection and try again.",
      },
    });
    expect((await post("ada", "203.0.113.7", `{"text":"${"y".repeat(5_000)}"}`)).status).toBe(200);
  });
});
