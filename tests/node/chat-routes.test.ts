// createChatRoutes: every route of the server side in one handler, as a
// Next.js catch-all route or a Node server mounts it; the origin check as a
// browser behind localhost, 127.0.0.1 or a proxy meets it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import { createScriptedModel } from "../../src/harness";
import {
  createChatEndpoints,
  createChatRoutes,
  createExecuteCodeTool,
  createRunFileRoute,
  createSqliteChatStore,
  createUploadRoute,
  toNodeMiddleware,
  type ChatStore,
} from "../../src/server";
import { startSandbox } from "./sandbox-fixture";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let store: ChatStore;
let routes: ReturnType<typeof createChatRoutes>;
let proxied: ReturnType<typeof createChatRoutes>;

beforeAll(async () => {
  sandbox = await startSandbox(createScriptedExecutor(() => ({ stdout: "4\n" })));
  store = await createSqliteChatStore({ path: ":memory:" });
  const ctx = { sandboxUrl: sandbox.url, signing: sandbox.signing, tenantId: "course-7" };
  const endpoints = createChatEndpoints({
    store,
    model: createScriptedModel({ chunkDelayMs: 0 }),
    tools: ({ participantId }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId }) }),
  });
  const options = {
    endpoints,
    files: createRunFileRoute(ctx),
    uploads: createUploadRoute(ctx),
    // A session cookie as the app's sign-in would read it.
    participantId: (request: Request) => /session=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? null,
  };
  routes = createChatRoutes(options);
  proxied = createChatRoutes({ ...options, trustProxy: true });
});
afterAll(async () => {
  await store?.close();
  await sandbox?.close();
});

/** A request as Next.js hands it over: its URL rebuilt on localhost, the browser's Host and Origin as sent. */
function browserRequest(
  method: string,
  path: string,
  {
    host = "127.0.0.1:3000",
    origin = `http://${host}`,
    body,
    headers = {},
  }: {
    host?: string;
    origin?: string | null;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
) {
  return new Request(`http://localhost:3000${path}`, {
    method,
    headers: {
      host,
      cookie: "session=ada",
      ...(origin ? { origin } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("createChatRoutes", () => {
  it("serves a page at 127.0.0.1 whose framework calls itself localhost, and refuses another origin", async () => {
    expect((await routes.handle(browserRequest("POST", "/api/chats", { body: { id: "c1" } }))).status).toBe(201);
    const elsewhere = await routes.handle(
      browserRequest("POST", "/api/chats", { body: {}, origin: "https://elsewhere.example" }),
    );
    expect(elsewhere.status).toBe(403);
    const form = await routes.handle(
      browserRequest("POST", "/api/chats", { headers: { "content-type": "text/plain" }, origin: null }),
    );
    expect(form.status).toBe(415);
  });

  it("takes a proxy's forwarded host only when told to trust it", async () => {
    const behindProxy = {
      host: "app:3000",
      origin: "https://tutor.example.edu",
      body: {},
      headers: { "x-forwarded-host": "tutor.example.edu", "x-forwarded-proto": "https" },
    };
    expect((await routes.handle(browserRequest("POST", "/api/chats", behindProxy))).status).toBe(403);
    expect((await proxied.handle(browserRequest("POST", "/api/chats", behindProxy))).status).toBe(201);
  });

  it("archives with PATCH and deletes with DELETE, says which methods a path takes, and wants a signed-in caller", async () => {
    await routes.handle(browserRequest("POST", "/api/chats", { body: { id: "c2" } }));
    expect((await routes.handle(browserRequest("PATCH", "/api/chats/c2", { body: { archived: true } }))).status).toBe(
      204,
    );
    const listed = await (await routes.GET(browserRequest("GET", "/api/chats"))).json();
    expect(listed.chats.find((chat: { id: string }) => chat.id === "c2").archived).toBe(true);
    expect((await routes.DELETE(browserRequest("DELETE", "/api/chats/c2"))).status).toBe(204);
    const wrong = await routes.handle(browserRequest("PUT", "/api/chats/c1", { body: {} }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PATCH, DELETE");
    const anonymous = new Request("http://localhost:3000/api/chats", { headers: { host: "127.0.0.1:3000" } });
    expect((await routes.handle(anonymous)).status).toBe(401);
    expect((await routes.handle(browserRequest("GET", "/api/nothing"))).status).toBe(404);
  });

  it("runs a message on the AI SDK's path, serves its files, and takes uploads from the page", async () => {
    const message = { id: "m1", role: "user", parts: [{ type: "text", text: "```python\nprint(2 + 2)\n```" }] };
    const answer = await routes.POST(
      browserRequest("POST", "/api/chat", {
        body: { id: "c3", messages: [message], trigger: "submit-message" },
        headers: { accept: "application/json" },
      }),
    );
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain('"stdout":"4\\n"');
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"]), "t.csv");
    const uploaded = await routes.POST(
      new Request("http://localhost:3000/api/uploads", {
        method: "POST",
        headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", cookie: "session=ada" },
        body: form,
      }),
    );
    expect(uploaded.status).toBe(201);
    const { files } = (await uploaded.json()) as { files: Array<{ url: string }> };
    expect((await routes.GET(browserRequest("GET", files[0]!.url))).status).toBe(200);
    const stranger = browserRequest("GET", files[0]!.url, { headers: { cookie: "session=eve" } });
    expect((await routes.GET(stranger)).status).toBe(404);
  });
});

describe("toNodeMiddleware", () => {
  it("answers the routes' paths in a Node server, as Vite's dev server mounts it, and leaves the rest to the app", async () => {
    const middleware = toNodeMiddleware(routes.handle);
    const server = createServer((req, res) =>
      middleware(req, res, () => res.writeHead(200, { "content-type": "text/html" }).end("<p>the page</p>")),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${url}/apis?x=/api/`);
      expect(await page.text()).toBe("<p>the page</p>");
      const headers = { origin: url, cookie: "session=ada", "content-type": "application/json" };
      const created = await fetch(`${url}/api/chats`, { method: "POST", headers, body: JSON.stringify({}) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const listed = (await (await fetch(`${url}/api/chats?limit=5`, { headers })).json()) as {
        chats: Array<{ id: string }>;
      };
      expect(listed.chats.map((chat) => chat.id)).toContain(id);
      expect(
        (await fetch(`${url}/api/chats`, { headers: { ...headers, origin: "https://elsewhere.example" } })).status,
      ).toBe(403);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
