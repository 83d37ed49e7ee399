import type { RemoteThreadListAdapter, ThreadHistoryAdapter } from "@assistant-ui/react";

export interface StoredChatsOptions {
  /**
   * Where `createChatEndpoints` is mounted.
   * @default "/api"
   */
  api?: string;
  /**
   * What `POST /api/chats` gets for a new chat: the tools this page runs, settings the server reads.
   * @default {}
   */
  newChat?: () => Record<string, unknown>;
  /** @default the page's `fetch` */
  fetch?: typeof fetch;
}

/** A chat in `GET /api/chats`. */
interface ListedChat {
  id: string;
  title: string | null;
  archived: boolean;
  updated_at: number;
}

/** A stored message as the chat endpoints send it (an AI SDK UI message). */
interface StoredMessage {
  id: string;
  role: string;
  parts: unknown[];
  metadata?: unknown;
}

function client({ api = "/api", fetch: fetchImpl }: StoredChatsOptions) {
  const send = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const chatsPath = `${api}/chats`;
  const chatPath = (id: string) => `${chatsPath}/${encodeURIComponent(id)}`;
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await send(path, {
      ...init,
      headers: {
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
    });
    if (!response.ok) {
      const said = (await response.json().catch(() => null)) as { message?: unknown } | null;
      throw new Error(
        typeof said?.message === "string" ? said.message : `The chat server answered ${response.status}.`,
      );
    }
    return (response.status === 204 ? undefined : await response.json()) as T;
  }
  return { call, chatsPath, chatPath };
}

type TitleStream = Awaited<ReturnType<RemoteThreadListAdapter["generateTitle"]>>;
type TitleChunk = TitleStream extends ReadableStream<infer Chunk> ? Chunk : never;

/** A title as assistant-ui reads a generated one: a message of one text part. An empty title streams nothing. */
function titleStream(title: string): TitleStream {
  const chunks: TitleChunk[] = title
    ? [
        { type: "part-start", path: [], part: { type: "text" } },
        { type: "text-delta", path: [0], textDelta: title },
        { type: "part-finish", path: [0] },
      ]
    : [];
  return new ReadableStream<TitleChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  }) as TitleStream;
}

/**
 * assistant-ui's remote thread list over the chats `createChatEndpoints`
 * keeps: the caller's chats (`GET /api/chats`), a new one per new thread
 * (`POST /api/chats`), renamed, archived and deleted through `PATCH` and
 * `DELETE /api/chats/:id`. Titles come from the server: a chat is named
 * after its first message until its owner renames it.
 */
export function createStoredChatsAdapter(options: StoredChatsOptions = {}): RemoteThreadListAdapter {
  const { call, chatsPath, chatPath } = client(options);
  const setListing = (remoteId: string, change: { title?: string | null; archived?: boolean }) =>
    call<void>(chatPath(remoteId), { method: "PATCH", body: JSON.stringify(change) });
  const toThread = (chat: ListedChat) => ({
    status: chat.archived ? ("archived" as const) : ("regular" as const),
    remoteId: chat.id,
    ...(chat.title === null ? {} : { title: chat.title }),
    lastMessageAt: new Date(chat.updated_at),
  });
  const fetchChat = async (remoteId: string) => {
    const { chats } = await call<{ chats: ListedChat[] }>(`${chatsPath}?limit=500`);
    const chat = chats.find((candidate) => candidate.id === remoteId);
    if (!chat) throw new Error(`There is no chat ${remoteId}.`);
    return toThread(chat);
  };
  return {
    async list() {
      const { chats } = await call<{ chats: ListedChat[] }>(chatsPath);
      return { threads: chats.map(toThread) };
    },
    async initialize() {
      const chat = await call<{ id: string }>(chatsPath, {
        method: "POST",
        body: JSON.stringify(options.newChat?.() ?? {}),
      });
      return { remoteId: chat.id };
    },
    rename: (remoteId, title) => setListing(remoteId, { title }),
    archive: (remoteId) => setListing(remoteId, { archived: true }),
    unarchive: (remoteId) => setListing(remoteId, { archived: false }),
    delete: (remoteId) => call<void>(chatPath(remoteId), { method: "DELETE" }),
    fetch: (remoteId) => fetchChat(remoteId),
    // The server names a chat after its first message: the list takes that name once the first run is over.
    async generateTitle(remoteId) {
      const { title } = await fetchChat(remoteId);
      return titleStream(title ?? "");
    },
  };
}

/**
 * The history of one stored chat for the AI SDK runtime (`useChatRuntime({
 * adapters: { history } })`): its messages as the server keeps them. The
 * server stores every message itself, so nothing is appended from here.
 * Without a `remoteId` (a thread not yet sent), the history is empty.
 */
export function storedChatHistory(
  remoteId: string | undefined,
  options: StoredChatsOptions = {},
): ThreadHistoryAdapter {
  const { call, chatPath } = client(options);
  const read = async () => (remoteId ? (await call<{ messages: StoredMessage[] }>(chatPath(remoteId))).messages : []);
  return {
    load: async () => ({ messages: [] }),
    append: async () => undefined,
    withFormat: (format) => ({
      async load() {
        const messages = await read();
        return {
          headId: messages.at(-1)?.id ?? null,
          messages: messages.map(({ id, ...content }, index) =>
            format.decode({
              id,
              parent_id: index ? messages[index - 1]!.id : null,
              format: format.format,
              content: content as never,
            }),
          ),
        };
      },
      append: async () => undefined,
    }),
  };
}
