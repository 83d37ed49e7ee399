import { HttpRefusal, mediaTypeOf } from "../http.js";

/** The request's body: a JSON object of at most `maxBytes`, or a HttpRefusal that says what is wrong. */
export async function readBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  if (mediaTypeOf(request.headers.get("content-type")) !== "application/json")
    throw new HttpRefusal(415, "unsupported_media_type", "Send the request as application/json.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpRefusal(413, "too_large", "The request body is too large.");
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
        throw new HttpRefusal(413, "too_large", "The request body is too large.");
      }
      chunks.push(value);
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpRefusal(400, "invalid_json", "The request body is not JSON.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new HttpRefusal(400, "invalid_request", "The request body is not a JSON object.");
  return body as Record<string, unknown>;
}
