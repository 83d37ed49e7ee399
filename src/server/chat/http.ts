import { createBodyBudget, type BodyBudgetOptions, type MeteredBody } from "../http/body-budget.js";
import { HttpRefusal, mediaTypeOf, readJsonBytes } from "../http/http.js";

/** The request's body: a JSON object of at most `maxBytes`, or a HttpRefusal that says what is wrong. */
export async function readBody(
  request: Request,
  maxBytes: number,
  /** Holds the body's bytes against the chat's shared budget while they are read. */
  meter?: (body: ReadableStream<Uint8Array> | null) => MeteredBody,
  /** Whose turn a large body is parsed in. */
  sender?: string,
): Promise<Record<string, unknown>> {
  if (mediaTypeOf(request.headers.get("content-type")) !== "application/json")
    throw new HttpRefusal(415, "unsupported_media_type", "Send the request as application/json.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  const metered = meter?.(request.body);
  let body: unknown;
  try {
    body = await readJsonBytes(
      metered?.chunks ?? (request.body as AsyncIterable<Uint8Array> | null),
      maxBytes,
      declared,
      sender,
    );
  } finally {
    metered?.release();
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new HttpRefusal(400, "invalid_request", "The request body is not a JSON object.");
  return body as Record<string, unknown>;
}

/** The memory the chat's request bodies share while they arrive, with its refusals in the words of messages. */
export const createMessageBudget = (options: BodyBudgetOptions) =>
  createBodyBudget(options, {
    busy: () =>
      new HttpRefusal(
        503,
        "server_busy",
        "The server is taking many messages at once; try again in a moment.",
        {},
        { "retry-after": "5" },
      ),
    clientBusy: () =>
      new HttpRefusal(
        429,
        "requests_in_progress",
        "Many messages from your network are on their way already; try again in a moment.",
        {},
        { "retry-after": "5" },
      ),
    participantBusy: () =>
      new HttpRefusal(
        429,
        "requests_in_progress",
        "Your other messages on their way are as much as one student may send at once; wait for them.",
        {},
        { "retry-after": "2" },
      ),
    tooSlow: () =>
      new HttpRefusal(
        408,
        "request_too_slow",
        "The message arrived too slowly and was not read; check the connection and try again.",
      ),
  });
