// A class larger than the sandbox holds, all at once, through /api/chat:
// every turn comes back with its program's real result and its figure, or
// with `busy` and when to try again. Nothing is cut short, nothing goes
// missing. Outcomes are checked, never timings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type RunningHarness } from "../../src/harness";
import { createScriptedExecutor } from "../../src/sandbox";
import { readLines } from "../../src/server/codeapi/sandbox-stream";

const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000280000001e00806000000", "hex");

let harness: RunningHarness;
beforeAll(async () => {
  harness = await startHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    // One slot, each program a moment long: the queue (64) fills at once.
    maxConcurrentRuns: 1,
    // A hundred and twenty browsers on one machine: each gets its cookie.
    participantCookie: { newParticipantLimit: { max: 1_000, windowMs: 60_000 } },
    executor: createScriptedExecutor((code) => ({
      delayMs: 250,
      stdout: `${/print\((\d+)\)/.exec(code)?.[1]}\n`,
      files: [{ name: "figure-1.png", mediaType: "image/png", alt: "line", bytes: png }],
    })),
  });
}, 60_000);
afterAll(() => harness?.close());

interface Output {
  status: string;
  stdout?: string;
  retryAfterMs?: number;
  code?: string;
  files?: Array<{ ref: { sessionId: string; fileId: string } }>;
}

/** One student: a cookie of their own, one program, the turn's final tool output and their figure's status. */
async function student(n: number) {
  const session = await fetch(`${harness.url}/api/session`);
  const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
  await session.text();
  const response = await fetch(`${harness.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({
      id: `chat-${n}`,
      messages: [{ id: `m-${n}`, role: "user", parts: [{ type: "text", text: `\`\`\`python\nprint(${n})\n\`\`\`` }] }],
    }),
  });
  let output: Output | undefined;
  for await (const line of readLines(response.body!)) {
    if (!line.startsWith("data: {")) continue;
    const chunk = JSON.parse(line.slice(6)) as { type: string; output?: Output; preliminary?: boolean };
    if (chunk.type === "tool-output-available" && !chunk.preliminary) output = chunk.output;
  }
  const figure = output?.files?.[0]?.ref;
  const download = figure
    ? await fetch(`${harness.url}/api/files/${figure.sessionId}/${figure.fileId}`, { headers: { cookie } })
    : null;
  return { n, output, figure: download ? [download.status, (await download.arrayBuffer()).byteLength] : null };
}

describe("a class larger than the sandbox holds", () => {
  it("gets every program's result and figure, or busy with a time to try again", async () => {
    const turns = await Promise.all(Array.from({ length: 120 }, (_, n) => student(n)));
    const ran = turns.filter((turn) => turn.output?.status === "completed");
    const busy = turns.filter((turn) => turn.output?.status === "busy");
    // Each ran program's own output, and its figure for its owner.
    for (const turn of ran) {
      expect(turn.output!.stdout).toBe(`${turn.n}\n`);
      expect(turn.figure).toEqual([200, png.length]);
    }
    for (const turn of busy) expect(turn.output!.retryAfterMs).toBeGreaterThan(0);
    // Nothing else: no stream cut short, no error.
    expect(turns.filter((turn) => !ran.includes(turn) && !busy.includes(turn)).map((turn) => turn.output)).toEqual([]);
    // The queue held as many as it takes, and the rest were told to come back.
    expect(ran.length).toBeGreaterThanOrEqual(65);
    expect(busy.length).toBeGreaterThan(0);
  });
});
