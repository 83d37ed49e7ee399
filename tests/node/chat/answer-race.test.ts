// An answer sent the moment the page sees what the run awaits: the stream
// carries an approval request (or a client call) before the run's end is
// stored. A store whose write of that end is held makes the race certain.
import type { UIMessageChunk } from "ai";
import { BROWSER_RUN } from "../../../src/server/chat/client-tools";
import { describe, expect, it } from "vitest";
import { createSqliteChatStore, type ChatEndpoints, type ChatStore } from "../../../src/server";
import { chatServer, completed, executeCodeTool, serverToolsWithApproval } from "./fixtures";

/** A store that holds every write of a run's awaited end (`requires_action`) until `release()`. */
async function storeHoldingTheWait() {
  const inner = await createSqliteChatStore({ path: ":memory:" });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  let reads = 0;
  const store: ChatStore = {
    ...inner,
    get: (owner, id) => {
      reads++;
      return inner.get(owner, id);
    },
    replace: async (expected, next) => {
      if (next.status === "requires_action") {
        held++;
        await released;
      }
      return inner.replace(expected, next);
    },
  };
  return { store, release, held: () => held, reads: () => reads };
}

/** Reads a UI message stream response chunk by chunk. */
function chunks(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const seen: UIMessageChunk[] = [];
  return {
    seen,
    /** Reads until a chunk matches; the stream's end is an error. */
    async until(match: (chunk: UIMessageChunk) => boolean): Promise<UIMessageChunk> {
      for (;;) {
        const line = buffer.indexOf("\n\n");
        if (line >= 0) {
          const event = buffer.slice(0, line);
          buffer = buffer.slice(line + 2);
          if (!event.startsWith("data: {")) continue;
          const chunk = JSON.parse(event.slice("data: ".length)) as UIMessageChunk;
          seen.push(chunk);
          if (match(chunk)) return chunk;
          continue;
        }
        const { done, value } = await reader.read();
        if (done)
          throw new Error(`The stream ended without the chunk; it carried ${seen.map((c) => c.type).join(", ")}`);
        buffer += value;
      }
    },
    async rest() {
      for (;;) if ((await reader.read()).done) return;
    },
  };
}

const post = (chats: ChatEndpoints, path: string, body: unknown, accept = "application/json") =>
  chats.handle(
    new Request(`http://chat.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
    }),
    { participantId: "alice" },
  ) as Promise<Response>;

/** A chat whose run has asked the browser to run `print(1)`, its end held from the store until `held.release()`. */
async function browserCallHeld(busyWaitMs?: number) {
  const held = await storeHoldingTheWait();
  const { chats, store } = await chatServer({
    plan: () => [{ toolName: "execute_code", input: { code: "print(1)" }, id: "call_1" }],
    store: held.store,
    ...(busyWaitMs === undefined ? {} : { endpoints: { busyWaitMs } }),
  });
  await post(chats, "/api/chats", { id: "c", tools: [executeCodeTool] });
  const asking = chunks(
    await post(chats, "/api/chats/c/messages", { text: "run it in my browser" }, "text/event-stream"),
  );
  await asking.until((chunk) => chunk.type === "tool-input-available");
  return { held, chats, store, asking };
}

const userMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "look up pi" }] };

describe("an answer that races the stored end of its own run", () => {
  it("an approval sent as soon as the stream shows the request waits for the run's end and runs the tool", async () => {
    const held = await storeHoldingTheWait();
    const { chats, runs } = await chatServer({
      plan: () => [{ toolName: "lookup", input: { word: "pi" } }],
      store: held.store,
      endpoints: { busyWaitMs: 10_000, tools: () => ({ lookup: serverToolsWithApproval(runs).lookup }) },
    });
    const asking = chunks(await post(chats, "/api/chat", { id: "c", messages: [userMessage] }, "text/event-stream"));
    const start = (await asking.until((chunk) => chunk.type === "start")) as Extract<UIMessageChunk, { type: "start" }>;
    const request = (await asking.until((chunk) => chunk.type === "tool-approval-request")) as Extract<
      UIMessageChunk,
      { type: "tool-approval-request" }
    >;

    // The page answers at once, while the run's end is still being written.
    const answer = post(chats, "/api/chat", {
      id: "c",
      messages: [
        userMessage,
        {
          id: start.messageId,
          role: "assistant",
          parts: [
            {
              type: "tool-lookup",
              toolCallId: request.toolCallId,
              state: "approval-responded",
              input: { word: "pi" },
              approval: { id: request.approvalId, approved: true },
            },
          ],
        },
      ],
    });
    setTimeout(held.release, 50);
    await asking.rest();

    const answered = await answer;
    expect(answered.status).toBe(200);
    const chat = await answered.json();
    expect(chat.status).toBe("idle");
    expect(runs).toEqual(["lookup:pi"]);
    const part = chat.messages.at(-1).parts.find((p: { type: string }) => p.type === "tool-lookup");
    expect(part).toMatchObject({ state: "output-available", output: { meaning: "the meaning of pi" } });
  });

  it("the stream says the run finished only once its end is stored", async () => {
    const held = await storeHoldingTheWait();
    const { chats, store, runs } = await chatServer({
      plan: () => [{ toolName: "lookup", input: { word: "pi" } }],
      store: held.store,
      endpoints: { tools: () => ({ lookup: serverToolsWithApproval(runs).lookup }) },
    });
    const asking = chunks(await post(chats, "/api/chat", { id: "c", messages: [userMessage] }, "text/event-stream"));
    await asking.until((chunk) => chunk.type === "tool-approval-request");
    setTimeout(held.release, 50);
    await asking.until((chunk) => chunk.type === "finish");
    expect(held.held()).toBe(1);
    expect((await store.get("alice", "c"))!.status).toBe("requires_action");
  });

  it("a client tool's result posted as soon as the call streams waits for the run's end and is taken", async () => {
    const held = await storeHoldingTheWait();
    const { chats, call } = await chatServer({
      plan: () => [{ toolName: "execute_code", input: { code: "print(1)" }, id: "call_1" }],
      store: held.store,
      endpoints: { busyWaitMs: 10_000 },
    });
    await call("POST", "/api/chats", { id: "c", tools: [executeCodeTool] });
    const asking = chunks(
      await post(chats, "/api/chats/c/messages", { text: "run it in my browser" }, "text/event-stream"),
    );
    await asking.until((chunk) => chunk.type === "tool-input-available");

    const result = post(chats, "/api/chats/c/tool-results", {
      results: [{ tool_call_id: "call_1", output: completed("1\n") }],
    });
    setTimeout(held.release, 50);
    await asking.rest();

    const answered = await result;
    expect(answered.status).toBe(200);
    const chat = await answered.json();
    expect(chat.status).toBe("idle");
    // The model's echo of what it read (JSON): that the browser reported it, then stdout's one line between its fences.
    expect(chat.messages.at(-1).parts.at(-1).text).toContain(`${BROWSER_RUN}\\n`);
    expect(chat.messages.at(-1).parts.at(-1).text).toMatch(
      /stdout \(as printed, between the two lines \\"(~~~ [0-9a-f]{14})\\"\):\\n\1\\n1\\n\1/,
    );
  });

  it("an answer still gets 409 when the run does not end within the wait, and the chat loses nothing", async () => {
    const { held, chats, store, asking } = await browserCallHeld(200);

    const refused = await post(chats, "/api/chats/c/tool-results", {
      results: [{ tool_call_id: "call_1", output: completed("1\n") }],
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "conflict", status: "running" });

    held.release();
    await asking.rest();
    expect((await store.get("alice", "c"))!.status).toBe("requires_action");
  });
});

describe("requests on a running chat wait in memory", () => {
  it("a waiting answer reads the store once when the run ends, not while it waits", async () => {
    const { held, chats, asking } = await browserCallHeld(10_000);

    const before = held.reads();
    const result = post(chats, "/api/chats/c/tool-results", {
      results: [{ tool_call_id: "call_1", output: completed("1\n") }],
    });
    // A second of waiting: a store read every 100 ms would be ten.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(held.reads() - before).toBe(1);
    held.release();
    await asking.rest();

    const answered = await result;
    expect(answered.status).toBe(200);
    expect((await answered.json()).status).toBe("idle");
  });

  it("a participant's third request on a running chat is answered 409 at once, and the first two are taken", async () => {
    const { held, chats, store, asking } = await browserCallHeld(10_000);

    const answer = { results: [{ tool_call_id: "call_1", output: completed("1\n") }] };
    const waiting = [
      post(chats, "/api/chats/c/tool-results", answer),
      post(chats, "/api/chats/c/tool-results", answer),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = held.reads();
    const third = await post(chats, "/api/chats/c/messages", { text: "and again" });
    expect(third.status).toBe(409);
    expect(await third.json()).toMatchObject({ error: "conflict", status: "running" });
    // Refused from memory: the stored chat was not read for it.
    expect(held.reads()).toBe(before);

    held.release();
    await asking.rest();
    const statuses = (await Promise.all(waiting)).map((response) => response.status).sort();
    // The first answer wins; the second finds the calls answered.
    expect(statuses).toEqual([200, 409]);
    expect((await store.get("alice", "c"))!.status).toBe("idle");
  });
});

describe("following and stopping a run", () => {
  it("read the chat's status, never its messages", async () => {
    const held = await storeHoldingTheWait();
    const { chats } = await chatServer({
      plan: () => [{ toolName: "execute_code", input: { code: "print(1)" }, id: "call_1" }],
      store: held.store,
    });
    await post(chats, "/api/chats", { id: "c", tools: [executeCodeTool] });
    const get = (path: string, method = "GET") =>
      chats.handle(new Request(`http://chat.test${path}`, { method }), { participantId: "alice" }) as Promise<Response>;
    let before = held.reads();
    // Nothing runs: answered from the status alone.
    for (let i = 0; i < 5; i++) expect((await get("/api/chats/c/stream")).status).toBe(204);
    expect((await get("/api/chats/c/stop", "POST")).status).toBe(204);
    expect(held.reads()).toBe(before);
    const asking = chunks(
      await post(chats, "/api/chats/c/messages", { text: "run it in my browser" }, "text/event-stream"),
    );
    await asking.until((chunk) => chunk.type === "tool-input-available");
    // A run, held before its end is stored: followed live, still from the status alone.
    before = held.reads();
    const following = await get("/api/chats/c/stream");
    expect(following.status).toBe(200);
    expect(await following.body!.getReader().read()).toMatchObject({ done: false });
    expect(held.reads()).toBe(before);
    held.release();
    await asking.rest();
  });
});
