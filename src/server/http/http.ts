// The kit's one way to refuse a request and to answer JSON, for the server's
// Web handlers; the harness's Node handlers answer the same through
// node-json.ts.

import { heavyTurn } from "./turns.js";

/**
 * A request turned away: its HTTP status, a code a program can test, a
 * sentence a person can read, and any details (in the body) or headers
 * (`Retry-After`, `Allow`) that go with it.
 */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** What every refusal answers: `{ error, message, ...details }`. */
  get body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.details };
  }
}

/** A Content-Type header's media type, lower case, without its parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaTypeOf(header: string | null | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A JSON answer that no cache keeps. */
export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });

/** A refused request's answer, with its status and headers. */
export const refusalResponse = (refusal: HttpRefusal) => jsonResponse(refusal.status, refusal.body, refusal.headers);

const bodyTooLarge = () => new HttpRefusal(413, "too_large", "The request body is too large.");

/**
 * A JSON request body, read as it arrives (a Web `Request`'s body or a Node
 * request: both are async iterables of bytes): one past `maxBytes` is
 * refused as soon as it passes (413 `too_large`), one that is not JSON with
 * 400 `invalid_json`. A large body is parsed in `sender`'s turn (a student),
 * and refused (429 `requests_in_progress`) while that sender already has
 * many waiting.
 */
export async function readJsonBytes(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  declaredBytes = 0,
  sender?: string,
): Promise<unknown> {
  // A length said up front is refused before a byte is read.
  if (declaredBytes > maxBytes) throw bodyTooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels a Web stream's reading.
  for await (const chunk of body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw bodyTooLarge();
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (size > TURN_BYTES) checkShape(bytes);
  const text = bytes.toString("utf8");
  // A large body of many small objects takes the thread ~150 ms to parse: such bodies take turns.
  const endTurn = size > TURN_BYTES ? await takeTurn(sender) : null;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, "invalid_json", "The request body is not JSON.");
  } finally {
    endTurn?.();
  }
}

/** A turn for heavy work on `sender`'s behalf, or the refusal that says they have many waiting already. */
export async function takeTurn(sender?: string): Promise<() => void> {
  const endTurn = await heavyTurn(sender);
  if (endTurn) return endTurn;
  throw new HttpRefusal(
    429,
    "requests_in_progress",
    "Your other requests are still being read; wait for them before sending more.",
    {},
    { "retry-after": "2" },
  );
}

/** Bodies past this are scanned before they are parsed, and parse one an event-loop turn. */
const TURN_BYTES = 64 * 1024;
/** What a request of the kit's may hold: far more than the AI SDK's bodies of a long chat hold. */
const MAX_DEPTH = 64;
const MAX_CONTAINERS = 100_000;

/**
 * Refuses a body nested deeper, or of more objects and arrays, than a
 * request of the kit's ever is, before it is parsed: parsing 2 MiB of
 * `[[[…` or of `{}` holds the thread for a quarter of a second. A linear
 * scan of the bytes (UTF-8 never puts a quote, bracket or backslash inside
 * a longer character).
 */
function checkShape(bytes: Uint8Array): void {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      containers++;
      if (depth > MAX_DEPTH || containers > MAX_CONTAINERS) {
        throw new HttpRefusal(
          400,
          "invalid_json",
          `The request body nests deeper than ${MAX_DEPTH} levels or holds more than ${MAX_CONTAINERS} objects and arrays.`,
        );
      }
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
}
