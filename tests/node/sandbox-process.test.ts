// The harness as `npm start` runs it: the sandbox service in a process of
// its own, so that the programs, their output and the students' files
// never take the chat's thread; its health open to anyone says only that
// it is up, and an operator's token shows the counts and the event loop.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHarness, type RunningHarness } from "../../src/harness";
import { readFileSync } from "node:fs";
import { alive, processTree } from "./process-tree";

const directChildren = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);

let harness: RunningHarness;
beforeAll(async () => {
  harness = await startHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    engine: "cpython",
    sandboxProcess: true,
    operatorToken: "op-secret",
  });
}, 120_000);
afterAll(() => harness?.close());

const generate = async (program: string) => {
  const response = await fetch(`${harness.url}/api/generate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt: `\`\`\`python\n${program}\n\`\`\`` }),
  });
  return response.text();
};

describe("the sandbox in a process of its own", () => {
  it("runs the programs outside the chat's process, under one child of it", async () => {
    expect(await generate("import os\nprint('from', 'python', 6 * 7)")).toContain("from python 42");
    // The harness's only child is the sandbox process; every interpreter is under it.
    const children = directChildren(process.pid);
    expect(children).toHaveLength(1);
    expect(processTree(children[0]!).length).toBeGreaterThan(1);
  });

  it("tells strangers that it is up and which engine runs, and nothing more", async () => {
    const health = await (await fetch(`${harness.url}/v1/health`)).json();
    expect(health).toEqual({ status: "ok", executor: "cpython" });
    const wrong = await fetch(`${harness.url}/v1/health`, { headers: { authorization: "Bearer op-secre" } });
    expect(await wrong.json()).toEqual({ status: "ok", executor: "cpython" });
  });

  it("shows an operator the counts and the event loop's delay", async () => {
    const health = (await (
      await fetch(`${harness.url}/v1/health`, { headers: { authorization: "Bearer op-secret" } })
    ).json()) as Record<string, any>;
    expect(health.executor).toBe("cpython");
    expect(health.schedule).toMatchObject({ running: expect.any(Number), queued: expect.any(Number) });
    expect(health.eventLoopDelayMs).toEqual({
      p50: expect.any(Number),
      p99: expect.any(Number),
      max: expect.any(Number),
    });
  });

  it("starts the sandbox process again when it dies, on the same address, and programs run again", async () => {
    const said = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const [first] = directChildren(process.pid);
      process.kill(first!, "SIGKILL");
      await expect
        .poll(() => said.mock.calls.flat().join("\n"), { timeout: 10_000 })
        .toContain("the sandbox process ended (SIGKILL); it starts again in 0.5 s");
      await expect.poll(() => generate("print(6 * 7)"), { timeout: 60_000, interval: 500 }).toContain("42");
      const [second] = directChildren(process.pid);
      expect(second).not.toBe(first);
    } finally {
      said.mockRestore();
    }
  });

  it("ends the sandbox process, and every program in it, when the harness closes", async () => {
    const before = new Set(processTree(process.pid));
    const other = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      engine: "cpython",
      sandboxProcess: true,
    });
    const running = fetch(`${other.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "```python\nimport time\nprint('started', flush=True)\ntime.sleep(60)\n```" }),
    })
      .then((response) => response.text())
      .catch(() => "");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The new harness's sandbox process and everything under it: not what the suite's other harness starts
    // meanwhile (on a busy machine, its warm parent may still be preparing runs).
    const theirs = directChildren(process.pid)
      .filter((pid) => !before.has(pid))
      .flatMap((pid) => processTree(pid));
    // The sandbox process and the program's own.
    expect(theirs.length).toBeGreaterThan(1);
    await other.close();
    await running;
    await expect.poll(() => theirs.filter(alive), { timeout: 20_000 }).toEqual([]);
  });
});
