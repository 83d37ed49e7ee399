// The memory that uploads on their way to the sandbox share. A body's bytes
// count as they arrive, not as its length header says, so a connection
// that sends nothing holds nothing; each student, and each client where
// the app can tell them apart, may hold only part of the whole; and a body
// that arrives slower than a minimum rate, or stops, is cut, so holding
// memory costs its holder a steady stream of bytes.
import { HttpRefusal } from "./http.js";

export interface UploadBudgetOptions {
  /** Bytes all uploads together may hold. */
  maxBytesInFlight: number;
  /** Bytes one participant's uploads together may hold. */
  maxParticipantBytesInFlight: number;
  /** Bytes the uploads of one client (an address, as the app tells it) together may hold. */
  maxClientBytesInFlight?: number;
  /** Slowest rate a body may arrive at, over any stretch longer than `graceMs`. */
  minBytesPerSecond: number;
  /** Slack: the time a body has before its first bytes, and the most its earlier bytes can buy ahead. */
  graceMs: number;
}

/** The shared parts of a budget as the upload route and the harness's sandbox use them. */
export const DEFAULT_UPLOAD_BUDGET = {
  maxBytesInFlight: 128 * 1024 * 1024,
  // 0.5 Mbit/s: a 10 MiB file in under three minutes.
  minBytesPerSecond: 64 * 1024,
  graceMs: 10_000,
} as const;

/** One upload's share of the budget: its body as it is let through, and the release of what it holds. */
export interface MeteredUpload {
  chunks: AsyncIterable<Uint8Array>;
  release(): void;
}

const busy = () =>
  new HttpRefusal(
    503,
    "server_busy",
    "The server is taking many files at once; try again in a moment.",
    {},
    { "retry-after": "5" },
  );

const clientBusy = () =>
  new HttpRefusal(
    429,
    "uploads_in_progress",
    "Many files from your network are on their way already; try again in a moment.",
    {},
    { "retry-after": "5" },
  );

const yoursOnTheWay = () =>
  new HttpRefusal(
    429,
    "uploads_in_progress",
    "Your other files on their way are as much as one student may send at once; wait for them.",
    {},
    { "retry-after": "2" },
  );

const tooSlow = () =>
  new HttpRefusal(
    408,
    "upload_too_slow",
    "The file arrived too slowly and was not kept; check the connection and try again.",
  );

export function createUploadBudget(options: UploadBudgetOptions) {
  let inFlight = 0;
  // By participant ("p" and the id) and by client ("c" and the key).
  const held = new Map<string, number>();
  const add = (key: string, bytes: number) => {
    const now = (held.get(key) ?? 0) + bytes;
    if (now > 0) held.set(key, now);
    else held.delete(key);
  };

  return {
    /** Bytes held now, in all. */
    get bytesInFlight() {
      return inFlight;
    },
    /** Meters a request body; each chunk is held until `release`, or the body is refused in words. */
    open(participantId: string, body: ReadableStream<Uint8Array> | null, client?: string): MeteredUpload {
      let taken = 0;
      const mine = `p${participantId}`;
      const theirs = client === undefined ? null : `c${client}`;
      const take = (bytes: number) => {
        if ((held.get(mine) ?? 0) + bytes > options.maxParticipantBytesInFlight) throw yoursOnTheWay();
        if (theirs && (held.get(theirs) ?? 0) + bytes > (options.maxClientBytesInFlight ?? Infinity))
          throw clientBusy();
        if (inFlight + bytes > options.maxBytesInFlight) throw busy();
        inFlight += bytes;
        add(mine, bytes);
        if (theirs) add(theirs, bytes);
        taken += bytes;
      };
      async function* chunks(): AsyncGenerator<Uint8Array> {
        if (!body) return;
        const reader = body.getReader();
        // The latest moment the next bytes may come. Each chunk moves it on by the time its bytes buy at
        // the minimum rate, never more than the grace ahead: a fast start banks no minutes of silence.
        let due = Date.now() + options.graceMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let cut = false;
        try {
          for (;;) {
            timer = setTimeout(
              () => {
                cut = true;
                // A pending read ends as done once the stream is cancelled.
                reader.cancel().catch(() => undefined);
              },
              Math.max(0, due - Date.now()),
            );
            const { done, value } = await reader.read();
            clearTimeout(timer);
            if (cut) throw tooSlow();
            if (done) return;
            take(value.length);
            due = Math.min(due + (value.length / options.minBytesPerSecond) * 1000, Date.now() + options.graceMs);
            yield value;
          }
        } finally {
          clearTimeout(timer);
          reader.cancel().catch(() => undefined);
        }
      }
      let released = false;
      return {
        chunks: chunks(),
        release() {
          if (released) return;
          released = true;
          inFlight -= taken;
          add(mine, -taken);
          if (theirs) add(theirs, -taken);
        },
      };
    },
  };
}
