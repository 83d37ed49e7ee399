import { ChatRequestError } from "./validate.js";

/** A JSON answer that no cache keeps. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });

/** A refused request's answer: `{ error, message, ...details }` with its status. */
export function refusal(error: ChatRequestError): Response {
  return json(error.status, { error: error.code, message: error.message, ...error.details });
}

/** The request's body: a JSON object of at most `maxBytes`, or a ChatRequestError that says what is wrong. */
export async function readBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json")
    throw new ChatRequestError(415, "unsupported_media_type", "Send the request as application/json.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ChatRequestError(413, "too_large", "The request body is too large.");
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ChatRequestError(413, "too_large", "The request body is too large.");
      }
      chunks.push(value);
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ChatRequestError(400, "invalid_json", "The request body is not JSON.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ChatRequestError(400, "invalid_request", "The request body is not a JSON object.");
  return body as Record<string, unknown>;
}
