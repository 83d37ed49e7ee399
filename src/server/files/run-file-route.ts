import { HttpRefusal, mediaTypeOf, refusalResponse } from "../http/http.js";
import { SHOWN_IMAGES } from "./media-type.js";
import type { Sandbox } from "../sandbox.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "../token.js";

export interface RunFileRouteOptions {
  /** The sandbox service, as for `createExecuteCodeTool`. */
  sandboxUrl: string;
  signing: TokenMinterOptions | TokenMinter;
  tenantId: string;
  fetch?: typeof fetch;
  sandbox?: undefined;
}

/** The route for a sandbox that holds its runs' files itself (`createJupyterSandbox`). */
export interface RunFileRouteSandboxOptions {
  sandbox: Sandbox;
  tenantId: string;
}

/** A file the route hands over: from the sandbox service's answer, or from a sandbox that holds it. */
interface Found {
  body: BodyInit;
  mediaType: string;
  name: string;
  length: string | null;
}

const refuse = (status: number, code: string, message: string) =>
  refusalResponse(new HttpRefusal(status, code, message));

/** `attachment; filename="plot.png"; filename*=UTF-8''plot.png`, with nothing a header could be split on. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const base = name.split("/").at(-1) || "file";
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

/**
 * The route that serves a run's files to the student whose run made them:
 * `GET …/files/{sessionId}/{fileId}` (the last two path segments). It mints
 * a short-lived token for the participant on the server and fetches the
 * file from the sandbox service, which answers only the run's owner (or,
 * with `sandbox`, reads it from a sandbox that holds its runs' files): anyone else
 * gets the same 404 as for a file that never was, or has expired. Raster
 * images are served inline; everything else (SVG and HTML included) as a
 * download, never sniffed, under a CSP that runs nothing, and never from a
 * shared cache.
 */
export function createRunFileRoute(options: RunFileRouteOptions | RunFileRouteSandboxOptions) {
  const find = options.sandbox ? heldBy(options) : fetchedFrom(options);
  return {
    async handle(request: Request, { participantId }: { participantId: string }): Promise<Response> {
      if (request.method !== "GET") return refuse(405, "method_not_allowed", "Use GET.");
      const [sessionId, fileId] = new URL(request.url).pathname.split("/").slice(-2).map(decodeURIComponent);
      if (!sessionId || !fileId || !/^[\w-]{1,100}$/.test(sessionId) || !/^[\w-]{1,100}$/.test(fileId)) {
        return refuse(404, "not_found", "This file does not exist, or it has expired.");
      }
      const found = await find({ participantId, sessionId, fileId, signal: request.signal });
      if (found instanceof Response) return found;
      const mediaType = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(found.mediaType)
        ? found.mediaType
        : "application/octet-stream";
      const headers = new Headers({
        "content-type": mediaType,
        "content-disposition": disposition(SHOWN_IMAGES.has(mediaType) ? "inline" : "attachment", found.name),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; img-src 'self'; sandbox",
        "cross-origin-resource-policy": "same-origin",
        // Only this student's browser may keep it.
        "cache-control": "private, max-age=600",
        vary: "Cookie, Authorization",
      });
      if (found.length) headers.set("content-length", found.length);
      return new Response(found.body, { status: 200, headers });
    },
  };
}

interface Wanted {
  participantId: string;
  sessionId: string;
  fileId: string;
  signal: AbortSignal;
}

const notFound = () => refuse(404, "not_found", "This file does not exist, or it has expired.");

/** From the sandbox service, with a short-lived token for the participant: it answers only the run's owner. */
function fetchedFrom(options: RunFileRouteOptions) {
  const minter = toTokenMinter(options.signing);
  const doFetch = options.fetch ?? fetch;
  return async ({ participantId, sessionId, fileId, signal }: Wanted): Promise<Found | Response> => {
    let answer: Response;
    try {
      const token = await minter.mint({ participantId, tenantId: options.tenantId });
      answer = await doFetch(new URL(`/v1/download/${sessionId}/${fileId}`, options.sandboxUrl), {
        headers: { authorization: `Bearer ${token}` },
        signal,
      });
    } catch {
      return refuse(
        502,
        "sandbox_unavailable",
        "The code runner cannot be reached right now, so the file cannot be fetched.",
      );
    }
    if (answer.status === 404) return notFound();
    if (!answer.ok || !answer.body)
      return refuse(502, "sandbox_failed", `The code runner could not hand over the file (HTTP ${answer.status}).`);
    return {
      body: answer.body,
      mediaType: mediaTypeOf(answer.headers.get("content-type")),
      name: decodeURIComponent(answer.headers.get("x-file-name") ?? fileId),
      length: answer.headers.get("content-length"),
    };
  };
}

/** From a sandbox that holds its runs' files: only for the run's owner. */
function heldBy(options: RunFileRouteSandboxOptions) {
  return async ({ participantId, sessionId, fileId }: Wanted): Promise<Found | Response> => {
    const held = await options.sandbox.readFile?.({ participantId, tenantId: options.tenantId }, { sessionId, fileId });
    if (!held) return notFound();
    return {
      body: new Uint8Array(held.bytes),
      mediaType: held.mediaType,
      name: held.name,
      length: String(held.bytes.length),
    };
  };
}
