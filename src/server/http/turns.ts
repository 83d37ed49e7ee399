/**
 * Work that takes the server's thread for tens of milliseconds (parsing a
 * large body, reading a large chat) goes one piece an event-loop turn, so
 * many pieces that arrive together never hold the thread for all of them in
 * a row, and other requests are answered between them.
 *
 * The turns are shared fairly: each sender (a student) waits in a line of
 * their own, and the next turn goes to the line that has had the fewest. A
 * student who sends a hundred reads at once waits behind their own reads,
 * while a classmate's read waits for one turn of each student ahead of it,
 * not for the hundred.
 */

/** How many turns one sender may have waiting; more are refused, since the work they ask for is already queued. */
export const MAX_WAITING_TURNS = 8;

/** Each key's waiting pieces and how many turns it has had while the server was busy. */
const lines = new Map<string, { waiting: Array<() => void>; served: number }>();
/** The turns had, at the start of the latest turn, by the key that took it: a line that forms now starts from here. */
let now = 0;
let busy = false;

/**
 * Resolves, with the call that ends this turn, once it is `sender`'s turn
 * and the loop has gone round since the last one; null at once when the
 * sender already has `MAX_WAITING_TURNS` waiting. Work of no known sender
 * shares one line, which is never refused.
 */
export async function heavyTurn(sender?: string): Promise<(() => void) | null> {
  const key = sender === undefined ? "" : `:${sender}`;
  const line = lines.get(key) ?? { waiting: [], served: now };
  if (sender !== undefined && line.waiting.length >= MAX_WAITING_TURNS) return null;
  lines.set(key, line);
  await new Promise<void>((start) => {
    line.waiting.push(start);
    if (!busy) next();
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    busy = false;
    next();
  };
}

/** Starts the first waiting piece of the key that has had the fewest turns (the earliest to come, of equals). */
function next(): void {
  let chosen: { waiting: Array<() => void>; served: number } | undefined;
  for (const [key, line] of lines) {
    if (!line.waiting.length) {
      // A key with nothing waiting and no turns ahead of the others is forgotten: it would start from `now` again.
      if (line.served <= now) lines.delete(key);
      continue;
    }
    if (!chosen || line.served < chosen.served) chosen = line;
  }
  if (!chosen) {
    lines.clear();
    now = 0;
    return;
  }
  busy = true;
  now = chosen.served++;
  chosen.waiting.shift()!();
}
