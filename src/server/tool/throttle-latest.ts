const TICK = Symbol("tick");

/**
 * Passes on the items of `source` at most once per `intervalMs`: the first at
 * once, then always the latest, and the last one held back as soon as its
 * interval is up, so a quiet stretch never hides output that has arrived.
 * An `urgent` item goes out at once and replaces whatever was held.
 */
export async function* throttleLatest<T>(
  source: AsyncIterable<T>,
  intervalMs: number,
  urgent: (item: T) => boolean = () => false,
): AsyncGenerator<T> {
  const items = source[Symbol.asyncIterator]();
  let next = items.next();
  let held: { value: T } | null = null;
  let lastSent = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    while (true) {
      const wait: number | null = held ? Math.max(0, lastSent + intervalMs - performance.now()) : null;
      const step: IteratorResult<T> | typeof TICK =
        wait === null
          ? await next
          : await Promise.race([
              next,
              new Promise<typeof TICK>((resolve) => (timer = setTimeout(() => resolve(TICK), wait))),
            ]);
      clearTimeout(timer);
      if (step === TICK || (step.done && held)) {
        lastSent = performance.now();
        const { value } = held!;
        held = null;
        yield value;
        if (step !== TICK) return;
        continue;
      }
      if (step.done) return;
      next = items.next();
      if (urgent(step.value) || performance.now() - lastSent >= intervalMs) {
        held = null;
        lastSent = performance.now();
        yield step.value;
      } else held = { value: step.value };
    }
  } finally {
    clearTimeout(timer);
    await items.return?.();
  }
}
