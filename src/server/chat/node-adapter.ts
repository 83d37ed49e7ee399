import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { errorMessage } from "../../contract/error-message.js";

/**
 * A Web `Request` for a Node `http` request. Its `signal` aborts when the
 * client hangs up before the response is finished, so a run stops with it.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const url = new URL(req.url ?? "/", `${encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hangUp = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) hangUp.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    signal: hangUp.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes a Web `Response` to a Node `http` response, streaming its body; stops reading when the client hangs up. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length)
    headers["set-cookie"] = [...((res.getHeader("set-cookie") as string[] | undefined) ?? []), ...cookies];
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.on("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) break;
    }
  } catch {
    // The client went away, or the stream failed after the headers were sent.
  } finally {
    res.off("close", stop);
    res.end();
  }
}

/**
 * A Node `http` listener for Web handlers such as the chat endpoints:
 * `createServer(toNodeHandler((request) => chats.handle(request, { participantId })))`.
 * A handler that returns null gets a 404.
 */
export function toNodeHandler(
  handler: (request: Request, req: IncomingMessage, res: ServerResponse) => Promise<Response | null> | Response | null,
) {
  return (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    Promise.resolve(handler(toWebRequest(req, res), req, res))
      .then((response) => sendWebResponse(res, response ?? new Response("Not found", { status: 404 })))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "internal", message: errorMessage(error) }));
      });
}

export interface NodeMiddlewareOptions {
  /** The paths the handler takes: this one and everything below it. @default "/api" */
  basePath?: string;
}

/**
 * Connect-style middleware for a Web handler such as `createChatRoutes(…).handle`:
 * it takes every path under `basePath` and hands any other to `next`. Vite, in
 * a plugin's `configureServer` and `configurePreviewServer`:
 * `server.middlewares.use(toNodeMiddleware(handler))`. Mount it without a
 * path (`use(fn)`, not `use("/api", fn)`, which takes the path off `req.url`).
 */
export function toNodeMiddleware(
  handler: (request: Request) => Promise<Response | null> | Response | null,
  { basePath = "/api" }: NodeMiddlewareOptions = {},
) {
  const serve = toNodeHandler(handler);
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === basePath || path.startsWith(`${basePath}/`)) void serve(req, res);
    else next();
  };
}
