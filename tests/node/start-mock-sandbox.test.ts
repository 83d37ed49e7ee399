import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor, startMockSandbox, type StartedMockSandbox } from "../../src/harness/sandbox";
import { createExecuteCodeTool } from "../../src/server";
import { finalOutput } from "./tool-runs";

let sandbox: StartedMockSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("startMockSandbox", () => {
  it("listens on loopback and accepts the server tool signed with the options it returns", async () => {
    sandbox = await startMockSandbox({
      executor: createScriptedExecutor((code) => ({ stdout: `ran ${code}\n`, exitCode: 0 })),
    });
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // An executor of one's own is neither of the two engines.
    expect(sandbox.engine).toBeNull();
    const tool = createExecuteCodeTool({
      sandboxUrl: sandbox.url,
      signing: sandbox.signing,
      participantId: "p",
      tenantId: "t",
    });
    const result = await finalOutput(tool, "print(1)");
    expect(result).toMatchObject({ status: "completed", stdout: "ran print(1)\n", exitCode: 0 });
  });

  it("refuses a token signed with another key", async () => {
    sandbox = await startMockSandbox({ executor: createScriptedExecutor(() => ({ stdout: "no\n", exitCode: 0 })) });
    const other = await startMockSandbox({ executor: createScriptedExecutor(() => ({})) });
    try {
      const tool = createExecuteCodeTool({
        sandboxUrl: sandbox.url,
        signing: other.signing,
        participantId: "p",
        tenantId: "t",
      });
      const result = await finalOutput(tool, "print(1)");
      expect(result).toMatchObject({ status: "error" });
    } finally {
      await other.close();
    }
  });

  it("says which engine runs the programs, and runs the one it is told", async () => {
    sandbox = await startMockSandbox({ engine: "pyodide" });
    expect(sandbox.engine).toBe("pyodide");
    const health = (await (await fetch(`${sandbox.url}/v1/health`)).json()) as { executor?: string };
    expect(health.executor).toBe("pyodide");
  }, 60_000);
});
