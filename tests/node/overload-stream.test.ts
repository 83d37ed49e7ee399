import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor, type Executor } from "../../src/sandbox";
import { createExecuteCodeTool } from "../../src/server";
import { startSandbox } from "./sandbox-fixture";
import { finalOutput } from "./tool-runs";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const until = async (ready: () => boolean | Promise<boolean>) => {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 10));
};

/** A sandbox with one run slot and room for `maxQueued` waiting; each program runs until the test lets it go. */
async function oneSlot(maxQueued: number, executor?: Executor) {
  const letGo: Array<() => void> = [];
  const s = await startSandbox(
    executor ??
      createScriptedExecutor(async () => {
        await new Promise<void>((resolve) => letGo.push(resolve));
        return { stdout: "ran\n" };
      }),
    { schedule: { maxRunning: 1, maxQueued } },
  );
  cleanups.push(s.close);
  const run = (participantId: string) =>
    finalOutput(createExecuteCodeTool({ sandboxUrl: s.url, signing: s.signing, participantId, tenantId: "t" }), "x");
  const queued = async () =>
    ((await (await fetch(`${s.url}/v1/health`)).json()) as { schedule: { queued: number } }).schedule.queued;
  return { letGo, run, queued };
}

describe("sandbox past its capacity", () => {
  it("a waiting program pushed out of a full queue is told busy with a retry time, never a stream cut short", async () => {
    const s = await oneSlot(2);
    const a = s.run("a");
    await until(() => s.letGo.length === 1);
    // b floods: two programs waiting, each already told `queued` on its stream.
    const b1 = s.run("b");
    await until(async () => (await s.queued()) === 1);
    const b2 = s.run("b");
    await until(async () => (await s.queued()) === 2);
    const c = s.run("c");
    expect(await b2).toMatchObject({ status: "busy", retryAfterMs: 10_000 });
    for (let ran = 0; ran < 3; ran++) {
      await until(() => s.letGo.length > ran);
      s.letGo[ran]!();
    }
    for (const answer of [a, b1, c]) expect(await answer).toMatchObject({ status: "completed", stdout: "ran\n" });
  });

  it("a full queue of students with one program each refuses the newcomer, not one that waits", async () => {
    const s = await oneSlot(1);
    const a = s.run("a");
    await until(() => s.letGo.length === 1);
    const b = s.run("b");
    await until(async () => (await s.queued()) === 1);
    expect(await s.run("c")).toMatchObject({ status: "busy", retryAfterMs: 10_000 });
    s.letGo[0]!();
    await until(() => s.letGo.length === 2);
    s.letGo[1]!();
    for (const answer of [a, b]) expect(await answer).toMatchObject({ status: "completed" });
  });

  it("a run the engine loses after its stream began is a failure the tool can tell, not stream_ended", async () => {
    const s = await oneSlot(1, {
      async run({ onStart }) {
        onStart?.();
        throw new Error("The CPython sandbox stopped in the middle of the run.");
      },
      async close() {},
    });
    expect(await s.run("a")).toMatchObject({ status: "error", code: "sandbox_failed" });
  });
});
