// When a program started, as the tool tells it: by the server's clock, in
// every running result and the final one, so a card's clock counts from the
// run's real start, after a page reload too.
import { describe, expect, it } from "vitest";
import { createExecuteCodeTool, type Sandbox, type SandboxEvent } from "../../src/server";
import { runTool } from "./tool-runs";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sandbox that queues the program for `queuedMs`, starts it, prints twice, and ends. */
function sandbox(queuedMs: number, { streams = true } = {}): Sandbox {
  return {
    kind: "test",
    async *run(): AsyncGenerator<SandboxEvent> {
      if (streams) {
        yield { kind: "queued" };
        await pause(queuedMs);
        yield { kind: "started", timeLimitMs: 5000 };
        await pause(150);
        const truncated = { stdout: 0, stderr: 0 };
        yield { kind: "output", progress: { status: "running", stdout: "a\n", stderr: "", truncated } };
        await pause(150);
        yield { kind: "output", progress: { status: "running", stdout: "a\nb\n", stderr: "", truncated } };
      }
      const result = { status: "completed", stdout: "a\nb\n", stderr: "", exitCode: 0, signal: null } as const;
      yield {
        kind: "done",
        outcome: { ok: true, result: { ...result, wallTimeMs: 300, truncated: { stdout: 0, stderr: 0 } } },
      };
    },
  };
}

const tool = (sandbox: Sandbox) => createExecuteCodeTool({ sandbox, participantId: "p", tenantId: "t" });

describe("when a program started", () => {
  it("every running result and the final one carry it: after the wait for a slot, by the server's clock", async () => {
    const called = Date.now();
    const { preliminary, final } = await runTool(tool(sandbox(300)), "print('a'); print('b')");
    const ended = Date.now();
    const starts = (preliminary as Array<{ status: string; startedAt?: number }>).map((p) => p.startedAt);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    const startedAt = starts[0]!;
    // One start, the same in each: the wait in the queue is not the program's time.
    expect(new Set(starts)).toEqual(new Set([startedAt]));
    expect(startedAt).toBeGreaterThanOrEqual(called + 250);
    expect(startedAt).toBeLessThanOrEqual(ended);
    expect(final).toMatchObject({ status: "completed", startedAt });
  });

  it("a sandbox that does not stream cannot say: the final result has none", async () => {
    const { preliminary, final } = await runTool(tool(sandbox(0, { streams: false })), "print(1)");
    expect(preliminary).toEqual([]);
    expect(final).toMatchObject({ status: "completed" });
    expect(final).not.toHaveProperty("startedAt");
  });
});
