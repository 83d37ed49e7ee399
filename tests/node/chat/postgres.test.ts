// Two chat servers on one PostgreSQL: the first answer wins across both.
// Starts a real PostgreSQL (Debian's package) in a folder of its own on a
// loopback port, and stops it afterwards.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../../src/sandbox";
import { startHarness } from "../../../src/harness";
import { createChatEndpoints, createPostgresChatStore, toNodeHandler, type ChatStore } from "../../../src/server";
import { completed, executeCodeTool, plannedModel, serverTools, storedChat } from "./fixtures";
import { startPostgres, type PostgresCluster } from "./postgres-cluster";

let cluster: PostgresCluster;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  cluster = await startPostgres();
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await cluster?.stop();
}, 120_000);

/** One chat server: its own pool on the shared database, its own HTTP port, one shared model. */
async function chatServer(model: ReturnType<typeof plannedModel>["model"]) {
  const store: ChatStore = await createPostgresChatStore({ connectionString: cluster.url, poolConfig: { max: 10 } });
  const chats = createChatEndpoints({
    store,
    model,
    tools: () => serverTools([]),
    clientReplaceableTools: ["execute_code"],
  });
  // Who is asking comes from the host; here, a bot with a fixed id.
  const server: Server = createServer(toNodeHandler((request) => chats.handle(request, { participantId: "bot-7" })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (url: string, body: unknown, accept = "application/json") =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify(body) });

describe("two chat servers on one PostgreSQL", () => {
  it("50 concurrent results for one pending call over both servers: one success, 49 × 409, and the chat resumes once", async () => {
    const { model, prompts } = plannedModel(() => [
      { toolName: "execute_code", input: { code: "print(6 * 7)" }, id: "call_42" },
    ]);
    const [a, b] = [await chatServer(model), await chatServer(model)];

    const created = await post(`${a}/api/chats`, { tools: [executeCodeTool] });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const asked = await post(`${b}/api/chats/${id}/messages`, { text: "Work out 6 * 7" });
    expect(((await asked.json()) as { status: string }).status).toBe("requires_action");
    expect(prompts).toHaveLength(1);

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        post(
          `${n % 2 ? a : b}/api/chats/${id}/tool-results`,
          {
            results: [{ tool_call_id: "call_42", output: completed(`answer ${n}\n`) }],
          },
          "text/event-stream",
        ).then(async (response) => ({ status: response.status, text: await response.text(), n })),
      ),
    );
    const won = responses.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(49);
    expect(new Set(responses.map((r) => r.n % 2))).toEqual(new Set([0, 1]));
    // The model was asked once more, with the winning result.
    expect(prompts).toHaveLength(2);
    expect(won[0]!.text).toContain(`answer ${won[0]!.n}`);

    const chat = (await (await fetch(`${a}/api/chats/${id}`)).json()) as {
      status: string;
      messages: Array<{ role: string; parts: Array<{ type: string; text?: string; output?: { stdout?: string } }> }>;
    };
    expect(chat.status).toBe("idle");
    const parts = chat.messages.at(-1)!.parts;
    expect(parts.filter((part) => part.type === "text")).toHaveLength(1);
    expect(parts.find((part) => part.type === "tool-execute_code")?.output?.stdout).toBe(`answer ${won[0]!.n}\n`);
    // Both servers read the same truth.
    expect(await (await fetch(`${b}/api/chats/${id}`)).json()).toEqual(chat);
  }, 120_000);

  it("keeps each participant's chats apart, and the store's secret is one for all servers", async () => {
    const first = await createPostgresChatStore({ connectionString: cluster.url });
    const second = await createPostgresChatStore({ connectionString: cluster.url });
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    expect(Buffer.from(await first.secret("test")).equals(Buffer.from(await second.secret("test")))).toBe(true);
    const chat = storedChat({ id: "same", owner: "ada", updatedAt: 1 });
    expect(await first.insert(chat)).toBe(true);
    expect(await second.insert(chat)).toBe(false);
    expect(await second.insert({ ...chat, owner: "grace" })).toBe(true);
    expect(await first.get("ada", "same")).toEqual(chat);

    // The list: a chat named once from its first message, renamed, archived and deleted by its owner only.
    expect(await first.setListing("ada", "same", { title: "From the first message", ifUntitled: true })).toBe(true);
    expect(await second.setListing("ada", "same", { title: "Later message", ifUntitled: true })).toBe(true);
    expect(await second.setListing("ada", "same", { archived: true })).toBe(true);
    expect(await first.setListing("nobody", "same", { title: "x" })).toBe(false);
    expect(await second.list("ada", { limit: 10 })).toEqual([
      { id: "same", status: "idle", title: "From the first message", archived: true, createdAt: 1, updatedAt: 1 },
    ]);
    expect(await first.list("grace", { limit: 10 })).toEqual([
      expect.objectContaining({ id: "same", title: null, archived: false }),
    ]);
    // A rename and an archive from two servers at once: both stay.
    await Promise.all([
      first.setListing("grace", "same", { title: "Renamed" }),
      second.setListing("grace", "same", { archived: true }),
    ]);
    expect(await first.list("grace", { limit: 10 })).toEqual([
      expect.objectContaining({ title: "Renamed", archived: true }),
    ]);
    expect(await first.remove("ada", "same")).toBe(true);
    expect(await second.get("ada", "same")).toBeNull();
    expect(await second.list("ada", { limit: 10 })).toEqual([]);
    expect(await second.get("grace", "same")).not.toBeNull();

    // What an owner's chats take, in bytes of their stored JSON; and a sweep of chats past their retention.
    const big = {
      ...chat,
      id: "big",
      owner: "lin",
      messages: [{ id: "m", role: "user", parts: [{ type: "text", text: "é".repeat(10_000) }] }],
    } as typeof chat;
    expect(await first.insert(big)).toBe(true);
    expect(await second.usage!("lin")).toBeGreaterThan(20_000);
    expect(await second.usage!("nobody")).toBe(0);
    // Everyone's chats together, for the bound on the whole store.
    expect(await first.totalUsage!()).toBeGreaterThanOrEqual(
      (await second.usage!("lin")) + (await second.usage!("grace")),
    );
    expect(await first.insert({ ...chat, id: "recent", owner: "lin", updatedAt: 5 })).toBe(true);
    // The heartbeat marks a running chat at its version only.
    expect(
      await first.insert({ ...chat, id: "beating", owner: "lin", status: "running", version: 3, updatedAt: 5 }),
    ).toBe(true);
    await second.touch!({ owner: "lin", id: "beating", version: 2 }, 9);
    expect((await first.get("lin", "beating"))?.updatedAt).toBe(5);
    await second.touch!({ owner: "lin", id: "beating", version: 3 }, 9);
    expect((await first.get("lin", "beating"))?.updatedAt).toBe(9);
    await first.remove("lin", "beating");
    expect(await first.purge!(2)).toBe(2);
    expect((await first.list("lin", { limit: 10 })).map((kept) => kept.id)).toEqual(["recent"]);
    expect(await first.get("grace", "same")).toBeNull();
  });

  it("the harness keeps its chats there when given a postgres:// database (DATABASE_URL for npm start)", async () => {
    const start = () =>
      startHarness({
        port: 0,
        database: cluster.url,
        chunkDelayMs: 0,
        executor: createScriptedExecutor(() => ({ stdout: "42\n" })),
      });
    const first = await start();
    cleanups.push(() => first.close());
    const chat = await fetch(`${first.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        id: "pg-chat",
        trigger: "submit-message",
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "```python\nprint(42)\n```" }] }],
      }),
    });
    const cookie = chat.headers.get("set-cookie")!.split(";")[0]!;
    expect(((await chat.json()) as { status: string }).status).toBe("idle");
    // A second harness on the same database knows the participant (the cookie key is in the store) and the chat.
    const second = await start();
    cleanups.push(() => second.close());
    const read = await fetch(`${second.url}/api/chats/pg-chat`, { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain("Its first line of output is: 42");
  }, 60_000);
});
