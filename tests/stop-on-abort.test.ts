// A run kept by the chat endpoints outlives its request: the page's own Stop
// must also reach the server, and only the page's own Stop.
import { describe, expect, it } from "vitest";
import { stopRunOnAbort } from "../src/assistant-ui";

function recordingFetch() {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return new Response("data: [DONE]\n\n");
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe("stopRunOnAbort", () => {
  it("posts the chat's stop when the page aborts a chat request it sent", async () => {
    const { calls, fetch } = recordingFetch();
    const send = stopRunOnAbort({ api: "/api", fetch });
    const page = new AbortController();
    await send("/api/chat", {
      method: "POST",
      body: JSON.stringify({ id: "chat/1", messages: [] }),
      signal: page.signal,
    });
    expect(calls.map((call) => call.url)).toEqual(["/api/chat"]);
    page.abort();
    expect(calls.map((call) => call.url)).toEqual(["/api/chat", "/api/chats/chat%2F1/stop"]);
    expect(calls[1]!.init).toMatchObject({ method: "POST", body: "{}", keepalive: true });
    // Once only.
    page.abort();
    expect(calls).toHaveLength(2);
  });

  it("stops nothing for a request that is never aborted, for a GET, or for a body without a chat id", async () => {
    const { calls, fetch } = recordingFetch();
    const send = stopRunOnAbort({ fetch });
    const aborts = [new AbortController(), new AbortController(), new AbortController()];
    await send("/api/chat", {
      method: "POST",
      body: JSON.stringify({ id: "kept" }),
      signal: new AbortController().signal,
    });
    await send("/api/chat/kept/stream", { method: "GET", signal: aborts[0]!.signal });
    await send("/api/chat", { method: "POST", body: "not json", signal: aborts[1]!.signal });
    await send("/api/chat", { method: "POST", body: JSON.stringify({ messages: [] }), signal: aborts[2]!.signal });
    for (const abort of aborts) abort.abort();
    expect(calls.map((call) => call.url)).toEqual(["/api/chat", "/api/chat/kept/stream", "/api/chat", "/api/chat"]);
  });
});
