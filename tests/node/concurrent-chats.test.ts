import { afterAll, describe, expect, it } from "vitest";
import { startHarness, type RunningHarness } from "../../src/harness";

let harness: RunningHarness | undefined;
afterAll(() => harness?.close());

describe("many chats at once, each in a fresh interpreter", () => {
  it("50 concurrent chats from 50 browsers each get their own program's output, and nothing is lost", async () => {
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
          messages: [{ id: "u", role: "user", parts: [{ type: "text", text: `\`\`\`python\nimport sys\nprint(${n} * 1000 + 7)\nsys.exit(${n % 3})\n\`\`\`` }] }],
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
    results.forEach((result, n) => {
      expect(result).toMatchObject({ status: "completed", stdout: `${n * 1000 + 7}\n`, exitCode: n % 3 });
    });
  }, 240_000);
});
