// The kit's one way to refuse a request and to answer JSON, for the server's
// Web handlers; the harness's Node handlers answer the same through
// harness/node-json.ts.

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
 * 400 `invalid_json`.
 */
export async function readJsonBytes(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  declaredBytes = 0,
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
  const text = Buffer.concat(chunks).toString("utf8");
  const endTurn = size > TURN_BYTES ? await parsingTurn() : null;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, "invalid_json", "The request body is not JSON.");
  } finally {
    endTurn?.();
  }
}

/**
 * Bodies past this parse one an event-loop turn, in the order they arrived:
 * a large body of many small objects takes the thread ~150 ms to parse, and
 * many of them ending at once would hold it for all of their parses in a row.
 */
const TURN_BYTES = 64 * 1024;
let parsing: Promise<void> = Promise.resolve();

/** Resolves, with the call that ends its turn, when this body may parse: the last one has, and other requests have had a turn since. */
async function parsingTurn(): Promise<() => void> {
  const previous = parsing;
  let done!: () => void;
  parsing = new Promise((resolve) => (done = resolve));
  await previous;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}
