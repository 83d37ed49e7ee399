import { HttpRefusal, mediaTypeOf, readJsonBytes } from "../http.js";

/** The request's body: a JSON object of at most `maxBytes`, or a HttpRefusal that says what is wrong. */
export async function readBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  if (mediaTypeOf(request.headers.get("content-type")) !== "application/json")
    throw new HttpRefusal(415, "unsupported_media_type", "Send the request as application/json.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  const body = await readJsonBytes(request.body as AsyncIterable<Uint8Array> | null, maxBytes, declared);
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new HttpRefusal(400, "invalid_request", "The request body is not a JSON object.");
  return body as Record<string, unknown>;
}
