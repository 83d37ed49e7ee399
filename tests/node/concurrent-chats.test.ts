import { afterAll, describe, expect, it } from "vitest";
import { startHarness, type RunningHarness } from "../../src/harness";

let harness: RunningHarness | undefined;
afterAll(() => harness?.close());

describe("many chats at once, each in a fresh interpreter", () => {
  it("50 concurrent chats from 50 browsers: each gets its own program's output or an honest busy, never a timeout", async () => {
    harness = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      rateLimit: { max: 1000, windowMs: 60_000 },
      participantCookie: { newParticipantLimit: { max: 1000, windowMs: 60_000 } },
    });
    const url = harness.url;
    const chat = async (n: number) => {
      const response = await fetch(`${url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({
          id: `chat-${n}`,
          messages: [
            {
              id: "u",
              role: "user",
              parts: [
                { type: "text", text: `\`\`\`python\nimport sys\nprint(${n} * 1000 + 7)\nsys.exit(${n % 3})\n\`\`\`` },
              ],
            },
          ],
        }),
      });
      const text = await response.text();
      const chunk = text
        .split("\n")
        .filter((line) => line.startsWith("data: {"))
        .map((line) => JSON.parse(line.slice(6)) as { type: string; output?: unknown; preliminary?: boolean })
        // The final output; live output may come before it.
        .findLast((c) => c.type === "tool-output-available" && !c.preliminary);
      return chunk?.output as { status: string; stdout: string; exitCode: number } | undefined;
    };
    const results = await Promise.all(Array.from({ length: 50 }, (_, n) => chat(n)));
    // A program still waiting for a free interpreter after the tool's queue limit is busy: it never ran.
    // On a quiet machine all 50 complete; on a crowded one some may wait too long, but none may time out.
    results.forEach((result, n) => {
      if (result?.status === "busy") return;
      expect(result, JSON.stringify(result)).toMatchObject({
        status: "completed",
        stdout: `${n * 1000 + 7}\n`,
        exitCode: n % 3,
      });
    });
    expect(results.filter((result) => result?.status === "completed").length).toBeGreaterThan(0);
  }, 240_000);
});
