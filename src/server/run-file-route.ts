import { HttpRefusal, mediaTypeOf, refusalResponse } from "./http.js";
import { SHOWN_IMAGES } from "./sandbox-client.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "./token.js";

export interface RunFileRouteOptions {
  /** The sandbox service, as for `createExecuteCodeTool`. */
  sandboxUrl: string;
  signing: TokenMinterOptions | TokenMinter;
  tenantId: string;
  fetch?: typeof fetch;
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
 * file from the sandbox, which answers only the run's owner: anyone else
 * gets the same 404 as for a file that never was, or has expired. Raster
 * images are served inline; everything else (SVG and HTML included) as a
 * download, never sniffed, under a CSP that runs nothing, and never from a
 * shared cache.
 */
export function createRunFileRoute(options: RunFileRouteOptions) {
  const minter = toTokenMinter(options.signing);
  const doFetch = options.fetch ?? fetch;
  return {
    async handle(request: Request, { participantId }: { participantId: string }): Promise<Response> {
      if (request.method !== "GET") return refuse(405, "method_not_allowed", "Use GET.");
      const [sessionId, fileId] = new URL(request.url).pathname.split("/").slice(-2).map(decodeURIComponent);
      if (!sessionId || !fileId || !/^[\w-]{1,100}$/.test(sessionId) || !/^[\w-]{1,100}$/.test(fileId)) {
        return refuse(404, "not_found", "This file does not exist, or it has expired.");
      }
      let answer: Response;
      try {
        const token = await minter.mint({ participantId, tenantId: options.tenantId });
        answer = await doFetch(new URL(`/v1/download/${sessionId}/${fileId}`, options.sandboxUrl), {
          headers: { authorization: `Bearer ${token}` },
          signal: request.signal,
        });
      } catch {
        return refuse(
          502,
          "sandbox_unavailable",
          "The code runner cannot be reached right now, so the file cannot be fetched.",
        );
      }
      if (answer.status === 404) return refuse(404, "not_found", "This file does not exist, or it has expired.");
      if (!answer.ok || !answer.body)
        return refuse(502, "sandbox_failed", `The code runner could not hand over the file (HTTP ${answer.status}).`);
      const said = mediaTypeOf(answer.headers.get("content-type"));
      const mediaType = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(said) ? said : "application/octet-stream";
      const name = decodeURIComponent(answer.headers.get("x-file-name") ?? fileId);
      const headers = new Headers({
        "content-type": mediaType,
        "content-disposition": disposition(SHOWN_IMAGES.has(mediaType) ? "inline" : "attachment", name),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; img-src 'self'; sandbox",
        "cross-origin-resource-policy": "same-origin",
        // Only this student's browser may keep it.
        "cache-control": "private, max-age=600",
        vary: "Cookie, Authorization",
      });
      const length = answer.headers.get("content-length");
      if (length) headers.set("content-length", length);
      return new Response(answer.body, { status: 200, headers });
    },
  };
}
