// The README's bot, run for real: curl alone talks to the harness.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../../src/sandbox";
import { startHarness, type RunningHarness } from "../../../src/harness";

const run = promisify(execFile);
let harness: RunningHarness | undefined;
afterAll(() => harness?.close());

describe("examples/curl-bot.sh", () => {
  it("creates a chat with its own tool, sees requires_action, posts the result, reads the answer, and gets 409 the second time", async () => {
    const programs: string[] = [];
    harness = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      executor: createScriptedExecutor((code) => {
        programs.push(code);
        return { stdout: "the server sandbox\n" };
      }),
    });
    const { stdout } = await run("bash", ["examples/curl-bot.sh", harness.url]);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^session: \{"participant":"p_[\w-]+"\}$/);
    expect(lines[1]).toMatch(/^chat: chat_[\w-]+ \(idle\)$/);
    expect(lines[2]).toMatch(/^status: requires_action; call call_\w+ wants to run: print\(6 \* 7\)$/);
    expect(lines.slice(3)).toEqual([
      "status: idle",
      "answer: The program ran without errors. Its first line of output is: 42.",
      "again: HTTP 409",
    ]);
    expect(programs).toEqual([]);
  }, 60_000);
});
