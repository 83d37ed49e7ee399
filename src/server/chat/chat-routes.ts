import type { ChatCaller } from "./options.js";
import type { ChatEndpoints } from "./endpoints.js";
import { matchChatRoute } from "./routes.js";
import { HttpRefusal, jsonResponse, refusalResponse } from "../http/http.js";
import { checkSameOrigin, checkSameOriginJson, type SameOriginOptions } from "../http/same-origin.js";

/** Anything that answers a Web request for a caller: the file route, the upload route. */
interface CallerRoute {
  handle(request: Request, caller: ChatCaller): Promise<Response>;
}

export interface ChatRoutesOptions extends SameOriginOptions {
  /** `createChatEndpoints(…)`: the chats, the AI SDK chat path, streams and stop. */
  endpoints: ChatEndpoints;
  /** Who is asking, from your sign-in (a session cookie, a header your proxy sets); null answers 401. */
  participantId: (request: Request) => string | null | Promise<string | null>;
  /** `createRunFileRoute(…)`, at `GET {basePath}/files/{sessionId}/{fileId}`. */
  files?: CallerRoute;
  /** `createUploadRoute(…)`, at `POST {basePath}/uploads`. */
  uploads?: CallerRoute;
  /** @default "/api" */
  basePath?: string;
}

export type ChatRouteHandler = (request: Request) => Promise<Response>;

/**
 * Every route of the chat server side as one Web handler: the chats
 * (`{basePath}/chats…`), the AI SDK's chat path and its stream, Stop, a
 * run's files and the student's uploads. It answers only pages of this
 * origin (by the `Host` the browser sent; `X-Forwarded-*` only with
 * `trustProxy`) and a signed-in caller. Next.js:
 * `export const { GET, POST, PATCH, DELETE } = createChatRoutes(…)` in
 * `app/api/[...path]/route.ts`; Node: `toNodeHandler(routes.handle)`.
 */
export function createChatRoutes(options: ChatRoutesOptions) {
  const basePath = options.basePath ?? "/api";
  const filePath = new RegExp(`^${basePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/files/[\\w-]{1,100}/[\\w-]{1,100}$`);

  /** The methods a path takes, or null when it is none of these routes. */
  const methodsOf = (path: string): { methods: string[]; kind: "chat" | "file" | "upload" } | null => {
    if (options.uploads && path === `${basePath}/uploads`) return { methods: ["POST"], kind: "upload" };
    if (options.files && filePath.test(path)) return { methods: ["GET"], kind: "file" };
    const route = matchChatRoute(path, basePath);
    return route ? { methods: Object.keys(route.methods), kind: "chat" } : null;
  };

  const handle: ChatRouteHandler = async (request) => {
    try {
      const route = methodsOf(new URL(request.url).pathname);
      if (!route) throw new HttpRefusal(404, "not_found", "There is no such endpoint.");
      if (!route.methods.includes(request.method)) {
        throw new HttpRefusal(
          405,
          "method_not_allowed",
          `Use ${route.methods.join(" or ")}.`,
          {},
          {
            allow: route.methods.join(", "),
          },
        );
      }
      const header = (name: string) => request.headers.get(name);
      // A read or a delete has no body to check; an upload is multipart; everything else is JSON.
      if (request.method === "GET" || request.method === "DELETE" || route.kind === "upload")
        checkSameOrigin(header, options);
      else checkSameOriginJson(header, options);
      const participantId = await options.participantId(request);
      if (participantId === null) throw new HttpRefusal(401, "unauthenticated", "Sign in to use the chat.");
      const caller = { participantId };
      if (route.kind === "upload") return await options.uploads!.handle(request, caller);
      if (route.kind === "file") return await options.files!.handle(request, caller);
      return (
        (await options.endpoints.handle(request, caller, { basePath })) ??
        jsonResponse(404, { error: "not_found", message: "There is no such endpoint." })
      );
    } catch (error) {
      if (error instanceof HttpRefusal) return refusalResponse(error);
      throw error;
    }
  };
  return { handle, GET: handle, POST: handle, PATCH: handle, DELETE: handle };
}
