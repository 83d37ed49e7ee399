// Large JSON bodies that all end at once parse one an event-loop turn:
// other requests are answered between them, instead of after all of them.
import { describe, expect, it } from "vitest";
import { readJsonBytes } from "../../src/server/http";

/** A body of many small objects, the costliest kind to parse. */
const body = (kib: number) => {
  const text = JSON.stringify(Array.from({ length: kib * 100 }, (_, i) => ({ [i]: 0 })));
  return (async function* () {
    yield new TextEncoder().encode(text);
  })();
};

describe("large JSON bodies", () => {
  it("parse one a turn, with the event loop's other work between them", async () => {
    const seen: string[] = [];
    let ticking = true;
    const tick = () => {
      seen.push("tick");
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await Promise.all(
      Array.from({ length: 4 }, (_, n) => readJsonBytes(body(256), 4 * 1024 * 1024).then(() => seen.push(`body ${n}`))),
    );
    ticking = false;
    const parses = seen.map((event, i) => [event, i] as const).filter(([event]) => event !== "tick");
    expect(parses.map(([event]) => event)).toEqual(["body 0", "body 1", "body 2", "body 3"]);
    // Never two parses without a turn of other work between them.
    for (let k = 1; k < parses.length; k++) expect(seen.slice(parses[k - 1]![1], parses[k]![1])).toContain("tick");
  });

  it("still refuse what is not JSON, and take the next body after it", async () => {
    const broken = (async function* () {
      yield new TextEncoder().encode(`[${"1,".repeat(40_000)}`);
    })();
    await expect(readJsonBytes(broken, 1024 * 1024)).rejects.toMatchObject({ status: 400 });
    await expect(readJsonBytes(body(100), 4 * 1024 * 1024)).resolves.toHaveLength(10_000);
  });
});
