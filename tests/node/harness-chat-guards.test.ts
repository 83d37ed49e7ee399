// Attacks on POST /api/chat from other sites and from clients that lie about
// who they are.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createParticipantCookies, startHarness, type HarnessOptions } from "../../src/harness";
import { createScriptedExecutor } from "../../src/sandbox";
import { addressKey } from "../../src/harness/participant-cookie";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function harness(options: Partial<HarnessOptions> = {}) {
  const programs: string[] = [];
  const h = await startHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    executor: createScriptedExecutor((code) => {
      programs.push(code);
      return { stdout: "ran\n" };
    }),
    ...options,
  });
  cleanups.push(h.close);
  return { ...h, programs };
}

// The AI SDK's own request body; each request is a new chat.
let chats = 0;
const newChatBody = () =>
  JSON.stringify({
    id: `chat-${++chats}`,
    trigger: "submit-message",
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "```python\nprint(1)\n```" }] }],
  });

/** The tool's final result in a UI message stream (live output may come before it). */
async function toolOutput(response: Response): Promise<{ status?: string } | undefined> {
  const text = await response.text();
  let output: { status?: string } | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: {")) continue;
    const chunk = JSON.parse(line.slice(6)) as { type: string; output?: { status?: string }; preliminary?: boolean };
    if (chunk.type === "tool-output-available" && !chunk.preliminary) output = chunk.output;
  }
  return output;
}

describe("POST /api/chat with a body too large or not JSON", () => {
  it("is refused with the codes the chat endpoints use, and runs nothing", async () => {
    const h = await harness();
    const post = (body: string) =>
      fetch(`${h.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const large = await post(JSON.stringify({ padding: "x".repeat(3 * 1024 * 1024) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: "too_large", message: "The request body is too large." });
    const broken = await post("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_json" });
    expect(h.programs).toEqual([]);
  });
});

describe("POST /api/chat from another site", () => {
  it("refuses a JSON post with a foreign Origin with 403, and runs nothing", async () => {
    const h = await harness();
    const response = await fetch(`${h.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: newChatBody(),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "forbidden_origin" });
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(h.programs).toEqual([]);
  });

  it.each([
    ["text/plain", "text/plain;charset=UTF-8"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
  ])("refuses %s bodies (what a hidden form can send without a preflight), and runs nothing", async (_name, type) => {
    const h = await harness();
    for (const origin of [undefined, "https://evil.example"]) {
      const response = await fetch(`${h.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": type, ...(origin ? { origin } : {}) },
        body: newChatBody(),
      });
      expect([403, 415]).toContain(response.status);
    }
    const generate = await fetch(`${h.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ prompt: "```python\nprint(1)\n```" }),
    });
    expect(generate.status).toBe(415);
    expect(h.programs).toEqual([]);
  });

  it("refuses a request the browser marks as cross-site even without an Origin", async () => {
    const h = await harness();
    const response = await fetch(`${h.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: newChatBody(),
    });
    expect(response.status).toBe(403);
    expect(h.programs).toEqual([]);
  });

  it("answers a CORS preflight with no CORS permission", async () => {
    const h = await harness();
    const response = await fetch(`${h.url}/api/chat`, {
      method: "OPTIONS",
      headers: {
        origin: "https://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(response.status).toBe(405);
    for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
  });

  it("serves its own page's requests (same Origin), and origins the host allows", async () => {
    const h = await harness({ allowedOrigins: ["https://tutor.example"] });
    for (const origin of [h.url, "https://tutor.example"]) {
      const response = await fetch(`${h.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", origin, "sec-fetch-site": "same-origin" },
        body: newChatBody(),
      });
      expect(response.status).toBe(200);
      expect(await toolOutput(response)).toMatchObject({ status: "completed" });
    }
    expect(h.programs).toHaveLength(2);
  });
});

describe("who is asking", () => {
  /** A browser: keeps the cookie the harness gives it, and can add headers of its own. */
  const browser = (url: string) => {
    let cookie = "";
    return {
      get cookie() {
        return cookie;
      },
      async chat(headers: Record<string, string> = {}) {
        const response = await fetch(`${url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...headers },
          body: newChatBody(),
        });
        const set = response.headers.get("set-cookie");
        if (set) cookie = set.split(";")[0]!;
        return { response, set, output: await toolOutput(response) };
      },
    };
  };

  it("gives each browser its own id in a signed, HttpOnly, SameSite cookie", async () => {
    const h = await harness();
    const first = await browser(h.url).chat();
    expect(first.set).toMatch(
      /^ecu_participant=[\w-]+\.[\w-]+\.[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
  });

  it("ignores x-participant-id: rotating it does not get past the rate limit, and naming another user spends nothing of theirs", async () => {
    const h = await harness({ rateLimit: { max: 2, windowMs: 60_000 } });
    const mallory = browser(h.url);
    const alice = browser(h.url);
    expect((await alice.chat()).output).toMatchObject({ status: "completed" });
    expect((await mallory.chat()).output).toMatchObject({ status: "completed" });
    expect((await mallory.chat()).output).toMatchObject({ status: "completed" });
    for (let i = 0; i < 3; i++) {
      expect((await mallory.chat({ "x-participant-id": `rotated-${i}` })).output).toMatchObject({ status: "busy" });
    }
    // Mallory names Alice: still Mallory's own (spent) quota, and Alice's is untouched.
    const aliceId = alice.cookie;
    expect((await mallory.chat({ "x-participant-id": aliceId })).output).toMatchObject({ status: "busy" });
    expect((await alice.chat()).output).toMatchObject({ status: "completed" });
  });

  it("does not accept a cookie it did not sign", async () => {
    const h = await harness({ rateLimit: { max: 1, windowMs: 60_000 } });
    const real = browser(h.url);
    await real.chat();
    const [name, value] = real.cookie.split("=") as [string, string];
    const [header, , signature] = value.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ sub: "someone-else", iat: 1 })).toString("base64url");
    const forged = await fetch(`${h.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `${name}=${header}.${forgedPayload}.${signature}` },
      body: newChatBody(),
    });
    // Treated as a new browser: a fresh cookie, and its own fresh quota.
    expect(forged.headers.get("set-cookie")).toMatch(/^ecu_participant=/);
    expect(forged.headers.get("set-cookie")).not.toContain(value);
  });

  it("hands out only so many new ids per address, so dropping the cookie is no way around the limit", async () => {
    const h = await harness({ participantCookie: { newParticipantLimit: { max: 3, windowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) expect((await browser(h.url).chat()).response.status).toBe(200);
    const refused = await browser(h.url).chat();
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(h.programs).toHaveLength(3);
  });

  it("the page itself brings the browser's id: its first requests, sent at once, are one participant, and a load spends one id", async () => {
    const demoDir = await mkdtemp(path.join(tmpdir(), "ecu-page-"));
    cleanups.push(() => rm(demoDir, { recursive: true, force: true }));
    await writeFile(path.join(demoDir, "index.html"), "<!doctype html><title>chat</title>");
    const h = await harness({ demoDir, participantCookie: { newParticipantLimit: { max: 2, windowMs: 60_000 } } });
    const loadPage = async () => {
      const page = await fetch(`${h.url}/`);
      expect(await page.text()).toContain("<title>chat</title>");
      return page.headers.get("set-cookie")?.split(";")[0] ?? "";
    };
    const cookie = await loadPage();
    expect(cookie).toMatch(/^ecu_participant=/);
    // What the demo sends as it opens: its session, a chat, the list, all at once.
    const headers = { cookie, "content-type": "application/json" };
    const answers = await Promise.all([
      fetch(`${h.url}/api/session`, { headers }),
      fetch(`${h.url}/api/chats`, { method: "POST", headers, body: "{}" }),
      fetch(`${h.url}/api/chats`, { method: "POST", headers, body: "{}" }),
      fetch(`${h.url}/api/chats`, { headers }),
    ]);
    expect(answers.map((answer) => answer.headers.get("set-cookie"))).toEqual([null, null, null, null]);
    const listed = await fetch(`${h.url}/api/chats`, { headers });
    expect(((await listed.json()) as { chats: unknown[] }).chats).toHaveLength(2);
    // A second browser's load is the second (and last) id of the minute; a third page still loads, without one.
    expect(await loadPage()).toMatch(/^ecu_participant=/);
    expect(await loadPage()).toBe("");
    // A page that already has its id keeps it.
    expect((await fetch(`${h.url}/`, { headers: { cookie } })).headers.get("set-cookie")).toBeNull();
  });

  it("limits each id's chat requests with 429 and Retry-After before anything runs, and leaves other browsers and reads alone", async () => {
    const h = await harness({ chatRateLimit: { max: 3, windowMs: 60_000 } });
    const flooder = browser(h.url);
    for (let i = 0; i < 3; i++) expect((await flooder.chat()).response.status).toBe(200);
    const refused = await flooder.chat();
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(h.programs).toHaveLength(3);
    // The stateless endpoint and the chat endpoints share the count.
    const generate = await fetch(`${h.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: flooder.cookie },
      body: JSON.stringify({ prompt: "```python\nprint(1)\n```" }),
    });
    expect(generate.status).toBe(429);
    expect(await generate.json()).toMatchObject({
      error: "rate_limited",
      message: expect.stringMatching(/^Too many chat requests\. Try again in \d+ s\.$/),
    });
    const created = await fetch(`${h.url}/api/chats`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: flooder.cookie },
      body: "{}",
    });
    expect(created.status).toBe(429);
    expect(h.programs).toHaveLength(3);
    // Reading what the server has is not counted; another browser has its own allowance.
    const session = await fetch(`${h.url}/api/session`, { headers: { cookie: flooder.cookie } });
    expect(session.status).toBe(200);
    expect((await browser(h.url).chat()).output).toMatchObject({ status: "completed" });
  });

  it("counts what reads send in bytes: reading one chat over and over is refused with 429 once it has sent the budget", async () => {
    const h = await harness({ chatReadBudget: { bytes: 64 * 1024, windowMs: 60_000 } });
    const reader = browser(h.url);
    await reader.chat();
    const headers = { cookie: reader.cookie, "content-type": "application/json" };
    // One chat with about 20 KB in it.
    const created = await fetch(`${h.url}/api/chats`, { method: "POST", headers, body: "{}" });
    const { id } = (await created.json()) as { id: string };
    const text = "x".repeat(20_000);
    await fetch(`${h.url}/api/chats/${id}/messages`, { method: "POST", headers, body: JSON.stringify({ text }) });
    const statuses: number[] = [];
    for (let read = 0; read < 6; read++) {
      const response = await fetch(`${h.url}/api/chats/${id}`, { headers: { cookie: reader.cookie } });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await response.json()).toMatchObject({ error: "too_many_reads" });
      } else await response.arrayBuffer();
    }
    // 64 KB is three reads of 20 KB and the start of a fourth: the rest are refused.
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    // Another browser reads as it likes.
    const other = browser(h.url);
    await other.chat();
    expect((await fetch(`${h.url}/api/chats`, { headers: { cookie: other.cookie } })).status).toBe(200);
  });

  it("takes the id from the host's own sign-in when given getParticipantId, and answers 401 without one", async () => {
    const seen: string[] = [];
    const h = await harness({
      rateLimit: { max: 1, windowMs: 60_000 },
      // As if a sign-in proxy in front of the host set this header.
      getParticipantId: (req) => {
        const user = req.headers["x-signed-in-user"];
        if (typeof user === "string") seen.push(user);
        return typeof user === "string" ? user : null;
      },
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${h.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: newChatBody(),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("set-cookie")).toBeNull();
    expect(await toolOutput(await post({ "x-signed-in-user": "ada" }))).toMatchObject({ status: "completed" });
    expect(await toolOutput(await post({ "x-signed-in-user": "ada" }))).toMatchObject({ status: "busy" });
    expect(await toolOutput(await post({ "x-signed-in-user": "grace" }))).toMatchObject({ status: "completed" });
    expect(seen).toEqual(["ada", "ada", "grace"]);
  });
});

describe("new ids per address, per minute and per day", () => {
  afterEach(() => vi.useRealTimers());
  /** A request with no cookie from `address`: what identify answers, or the refusal it throws. */
  const newcomer = async (
    cookies: ReturnType<typeof createParticipantCookies>,
    address: string,
    headers: Record<string, string> = {},
  ) => {
    const req = { headers, socket: { remoteAddress: address } } as unknown as IncomingMessage;
    const res = { appendHeader: () => res } as unknown as ServerResponse;
    try {
      return { id: await cookies.identify(req, res) };
    } catch (error) {
      return { refusal: error as { status: number; message: string; headers: Record<string, string> } };
    }
  };

  it("hands out at most newParticipantDailyLimit ids a day per address, counting only what the minute's limit let through", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const cookies = createParticipantCookies({
      newParticipantLimit: { max: 2, windowMs: 60_000 },
      newParticipantDailyLimit: { max: 3, windowMs: 86_400_000 },
    });
    expect((await newcomer(cookies, "203.0.113.5")).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "203.0.113.5")).id).toMatch(/^p_/);
    // Over the minute's limit: refused, and the day's count is not spent by it.
    for (let i = 0; i < 5; i++) expect((await newcomer(cookies, "203.0.113.5")).refusal?.status).toBe(429);
    vi.advanceTimersByTime(60_000);
    expect((await newcomer(cookies, "203.0.113.5")).id).toMatch(/^p_/);
    vi.advanceTimersByTime(60_000);
    const refused = (await newcomer(cookies, "203.0.113.5")).refusal!;
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(
      "Too many new sessions from this address today; keep your cookie, or try again in 24 h.",
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    // Another address is not touched; the same one gets ids again a day after its first.
    expect((await newcomer(cookies, "198.51.100.7")).id).toMatch(/^p_/);
    vi.advanceTimersByTime(86_400_000 - 120_000);
    expect((await newcomer(cookies, "203.0.113.5")).id).toMatch(/^p_/);
  });

  it("with trustProxy, counts the client a proxy on this host names last in X-Forwarded-For, and only such a proxy", async () => {
    const cookies = createParticipantCookies({ newParticipantLimit: { max: 1, windowMs: 60_000 }, trustProxy: true });
    const via = (client: string) => ({ "x-forwarded-for": client });
    // Two students behind the proxy each get an id: one proxy is not one address for the whole class.
    expect((await newcomer(cookies, "127.0.0.1", via("203.0.113.5"))).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "127.0.0.1", via("198.51.100.7"))).id).toMatch(/^p_/);
    // What a client wrote before the proxy's own entry is not read: the same student, whatever it claims.
    expect((await newcomer(cookies, "::1", via("192.0.2.9, 203.0.113.5"))).refusal?.status).toBe(429);
    // From any other peer the header is the client's own words: the peer is counted.
    expect((await newcomer(cookies, "192.0.2.50", via("192.0.2.77"))).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "192.0.2.50", via("192.0.2.78"))).refusal?.status).toBe(429);
    // Loopback that names no client is counted as loopback.
    expect((await newcomer(cookies, "127.0.0.1")).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "127.0.0.1", via("not an address"))).refusal?.status).toBe(429);
  });

  it("without trustProxy, reads no X-Forwarded-For: a forwarder on this host passes on what the client wrote", async () => {
    const cookies = createParticipantCookies({ newParticipantLimit: { max: 1, windowMs: 60_000 } });
    expect((await newcomer(cookies, "127.0.0.1", { "x-forwarded-for": "203.0.113.5" })).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "127.0.0.1", { "x-forwarded-for": "198.51.100.7" })).refusal?.status).toBe(429);
  });

  it("counts an IPv6 address by its /64, so new addresses of one host are no way around the limits", async () => {
    const cookies = createParticipantCookies({ newParticipantDailyLimit: { max: 2, windowMs: 86_400_000 } });
    expect((await newcomer(cookies, "2001:db8:1:2::1")).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "2001:db8:1:2:a:b:c:d")).id).toMatch(/^p_/);
    expect((await newcomer(cookies, "2001:0db8:0001:0002:ffff::9")).refusal?.status).toBe(429);
    expect((await newcomer(cookies, "2001:db8:1:3::1")).id).toMatch(/^p_/);
  });

  it("keys addresses as they are counted", () => {
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
    // An IPv4 client of a dual-stack listener is its IPv4 address, not one /64 for all of them.
    expect(addressKey("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("::FFFF:cb00:7105")).toBe("203.0.113.5");
    expect(addressKey("0:0:0:0:0:ffff:c633:6409")).toBe("198.51.100.9");
    expect(addressKey("0:0:0:0:0:ffff:198.51.100.9")).toBe("198.51.100.9");
    expect(addressKey("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressKey(undefined)).toBe("unknown");
  });
});

describe("what the harness stores in all", () => {
  it("refuses new chats with 507 and a message the demo shows once its store is full, and keeps what it has", async () => {
    const h = await harness({ chatLimits: { maxStoredBytes: 1 } });
    const created = await fetch(`${h.url}/api/chats`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(created.status).toBe(507);
    expect(await created.json()).toEqual({
      error: "store_full",
      message:
        "This server's store of chats is full (1 KB for everyone), so it takes no new chats or messages until older chats are deleted or expire. Your chats are kept; try again later.",
    });
    const viaChat = await fetch(`${h.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: newChatBody(),
    });
    expect(viaChat.status).toBe(507);
    expect(h.programs).toHaveLength(0);
  });
});
