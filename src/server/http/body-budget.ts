// The memory that request bodies on their way in share (uploads, chat
// messages). A body's bytes count as they arrive, not as its length header
// says, so a connection that sends nothing holds nothing; each student, and
// each client where the app can tell them apart, may hold only part of the
// whole; and a body that arrives slower than a minimum rate, or stops, is
// cut, so holding memory costs its holder a steady stream of bytes.
import type { HttpRefusal } from "./http.js";

export interface BodyBudgetOptions {
  /** Bytes all bodies together may hold. */
  maxBytesInFlight: number;
  /** Bytes one participant's bodies together may hold. */
  maxParticipantBytesInFlight: number;
  /** Bytes the bodies of one client (an address, as the app tells it) together may hold. */
  maxClientBytesInFlight?: number;
  /** Slowest rate a body may arrive at, over any stretch longer than `graceMs`. */
  minBytesPerSecond: number;
  /** Slack: the time a body has before its first bytes, and the most its earlier bytes can buy ahead. */
  graceMs: number;
}

/** The slowest a body may arrive: 0.5 Mbit/s (a 10 MiB file in under three minutes), after 10 s to start. */
export const DEFAULT_BODY_RATE = { minBytesPerSecond: 64 * 1024, graceMs: 10_000 } as const;

/** What a refused body is told, in the words of what it carries. */
export interface BodyRefusals {
  /** All bodies together hold the whole budget. */
  busy(): HttpRefusal;
  /** The client's bodies hold its share. */
  clientBusy(): HttpRefusal;
  /** The participant's other bodies hold its share. */
  participantBusy(): HttpRefusal;
  /** The body came slower than the minimum rate, or stopped. */
  tooSlow(): HttpRefusal;
}

/** One body's share of the budget: its bytes as they are let through, and the release of what it holds. */
export interface MeteredBody {
  chunks: AsyncIterable<Uint8Array>;
  release(): void;
}

export function createBodyBudget(options: BodyBudgetOptions, refusals: BodyRefusals) {
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
    open(participantId: string, body: ReadableStream<Uint8Array> | null, client?: string): MeteredBody {
      let taken = 0;
      const mine = `p${participantId}`;
      const theirs = client === undefined ? null : `c${client}`;
      const take = (bytes: number) => {
        if ((held.get(mine) ?? 0) + bytes > options.maxParticipantBytesInFlight) throw refusals.participantBusy();
        if (theirs && (held.get(theirs) ?? 0) + bytes > (options.maxClientBytesInFlight ?? Infinity))
          throw refusals.clientBusy();
        if (inFlight + bytes > options.maxBytesInFlight) throw refusals.busy();
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
            if (cut) throw refusals.tooSlow();
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
