/**
 * Work that takes the server's thread for tens of milliseconds (parsing a
 * large body, reading a large chat) goes one piece an event-loop turn, in
 * the order it came: many pieces that arrive together never hold the thread
 * for all of them in a row, and other requests are answered between them.
 */
let last: Promise<void> = Promise.resolve();

/** Resolves, with the call that ends this turn, once the last piece has ended and the loop has gone round since. */
export async function heavyTurn(): Promise<() => void> {
  const previous = last;
  let done!: () => void;
  last = new Promise((resolve) => (done = resolve));
  await previous;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}
