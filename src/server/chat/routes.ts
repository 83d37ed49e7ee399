/** The chat endpoints a route can lead to, by their names in `createChatEndpoints`. */
export type ChatEndpointName =
  | "chat"
  | "listChats"
  | "createChat"
  | "getChat"
  | "updateChat"
  | "deleteChat"
  | "postMessage"
  | "submitToolResults"
  | "followStream"
  | "stopRun";

export type ChatMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** What answers a path: the endpoint for each method, and the chat the path names (`null` when it names none, `undefined` when its id is not valid percent-encoding). */
export interface ChatRoute {
  methods: Partial<Record<ChatMethod, ChatEndpointName>>;
  chatId: string | null | undefined;
}

/** A path segment decoded, or undefined when it is not valid percent-encoding. */
function decodedId(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Which chat endpoint answers a path under `basePath` (default `/api`), by
 * method; null for a path that is not the chat's. One table for the chat
 * endpoints' `handle` and for hosts that check a request before handing it on.
 */
export function matchChatRoute(path: string, basePath = "/api"): ChatRoute | null {
  if (path === `${basePath}/chat`) return { methods: { POST: "chat" }, chatId: null };
  if (path === `${basePath}/chats`) return { methods: { GET: "listChats", POST: "createChat" }, chatId: null };
  // Where the AI SDK's `resume` looks for a run in progress.
  const resume = /^\/([^/]+)\/stream$/.exec(path.slice(`${basePath}/chat`.length));
  if (path.startsWith(`${basePath}/chat/`) && resume)
    return { methods: { GET: "followStream" }, chatId: decodedId(resume[1]!) };
  if (!path.startsWith(`${basePath}/chats/`)) return null;
  const [id, action, ...rest] = path.slice(`${basePath}/chats/`.length).split("/");
  if (!id || rest.length) return null;
  const chatId = decodedId(id);
  switch (action) {
    case undefined:
      return { methods: { GET: "getChat", PATCH: "updateChat", DELETE: "deleteChat" }, chatId };
    case "messages":
      return { methods: { POST: "postMessage" }, chatId };
    case "tool-results":
      return { methods: { POST: "submitToolResults" }, chatId };
    case "stream":
      return { methods: { GET: "followStream" }, chatId };
    case "stop":
      return { methods: { POST: "stopRun" }, chatId };
    default:
      return null;
  }
}
