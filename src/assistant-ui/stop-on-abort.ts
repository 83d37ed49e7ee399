export interface StopRunOnAbortOptions {
  /**
   * Where `createChatEndpoints` is mounted.
   * @default "/api"
   */
  api?: string;
  /** @default the page's `fetch` */
  fetch?: typeof fetch;
}

/** The chat id in the AI SDK's request body (`{ id, messages, … }`), if it has one. */
function chatIdOf(body: BodyInit | null | undefined): string | null {
  if (typeof body !== "string") return null;
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

/**
 * A `fetch` for the AI SDK transport of chats that `createChatEndpoints`
 * keeps. There a run outlives its request, so a page that closes or reloads
 * stops nothing; this makes the page's own Stop (`chat.stop()`, the
 * composer's Stop, the card's) also stop the run on the server: when a chat
 * request it sent is aborted, it posts `{api}/chats/:id/stop`.
 *
 * ```ts
 * useChatRuntime({ transport: new AssistantChatTransport({ api: "/api/chat", fetch: stopRunOnAbort() }) })
 * ```
 */
export function stopRunOnAbort({ api = "/api", fetch: fetchImpl }: StopRunOnAbortOptions = {}): typeof fetch {
  const send: typeof fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  return (input, init) => {
    const id = (init?.method ?? "GET").toUpperCase() === "POST" ? chatIdOf(init?.body) : null;
    // Only the page aborts a request it sent; one cut short by the page going away is never aborted.
    if (id !== null && init?.signal && !init.signal.aborted) {
      init.signal.addEventListener(
        "abort",
        () =>
          void send(`${api}/chats/${encodeURIComponent(id)}/stop`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{}",
            keepalive: true,
          }).catch(() => undefined),
        { once: true },
      );
    }
    return send(input, init);
  };
}
