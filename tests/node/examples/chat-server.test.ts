// The guide's chat endpoints in Node's http server: examples/chat-server.ts,
// with its programs run for real in the sandbox.
import type { Server } from "node:http";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { executeCodeClientTool } from "../../../src/client-executor/tool-spec";
import { createSqliteChatStore, type ChatStore } from "../../../src/server";
import { listen } from "../sandbox-fixture";
import { python, startTutorSandbox } from "./fixtures";

let sandbox: Awaited<ReturnType<typeof startTutorSandbox>> | undefined;
let store: ChatStore | undefined;
let server: Server | undefined;
let url: string;

beforeAll(async () => {
  sandbox = await startTutorSandbox();
  // As examples/your-app.ts reads them, when it is loaded.
  vi.stubEnv("SANDBOX_URL", sandbox.url);
  vi.stubEnv("SANDBOX_SIGNING_KEY", sandbox.signingKey);
  const { createChatServer } = await import("../../../examples/chat-server");
  store = await createSqliteChatStore({ path: ":memory:" });
  server = createChatServer(store);
  url = await listen(server);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await store?.close();
  await sandbox?.close();
});

interface Chat {
  id: string;
  status: string;
  messages: UIMessage[];
  required_action: { tool_calls: Array<{ name: string; input: unknown }> } | null;
}

/** A JSON request as the student `user` (signed in through the example's session cookie), or as nobody. */
async function api(user: string | null, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(user ? { cookie: `session=${user}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Chat & { error?: string } };
}

const outputsOf = (chat: Chat) =>
  chat.messages.flatMap((message) =>
    message.parts.flatMap((part) => ("output" in part && part.output ? [part.output] : [])),
  );

describe("the chat endpoints in Node's http server (examples/chat-server.ts)", () => {
  it("answers 401 without a session", async () => {
    expect((await api(null, "GET", "/api/chats")).status).toBe(401);
    expect((await api(null, "POST", "/api/chats", {})).status).toBe(401);
  });

  it("runs a student's program in the sandbox and keeps the chat as that student's", async () => {
    const created = await api("student-42", "POST", "/api/chats", {});
    expect(created.status).toBe(201);
    const { id } = created.body;

    const ran = await api("student-42", "POST", `/api/chats/${id}/messages`, { text: python("print(2 ** 10)") });
    expect(ran.status).toBe(200);
    expect(ran.body.status).toBe("idle");
    expect(outputsOf(ran.body)).toEqual([
      expect.objectContaining({ status: "completed", stdout: "1024\n", exitCode: 0 }),
    ]);
    const answer = ran.body.messages.at(-1)!.parts.findLast((part) => part.type === "text");
    expect(answer).toMatchObject({ text: expect.stringContaining("Its first line of output is: 1024") });

    expect((await api("student-42", "GET", `/api/chats/${id}`)).body.messages).toEqual(ran.body.messages);
    expect((await api("student-7", "GET", `/api/chats/${id}`)).status).toBe(404);
  });

  it("lets a chat take execute_code over, and waits for the client's result", async () => {
    const created = await api("student-42", "POST", "/api/chats", { tools: [executeCodeClientTool] });
    expect(created.status).toBe(201);
    const asked = await api("student-42", "POST", `/api/chats/${created.body.id}/messages`, {
      text: python("print(6 * 7)"),
    });
    expect(asked.body.status).toBe("requires_action");
    expect(asked.body.required_action?.tool_calls).toEqual([
      expect.objectContaining({ name: "execute_code", input: { code: "print(6 * 7)" } }),
    ]);
  });
});
