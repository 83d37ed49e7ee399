import { afterEach, describe, expect, it } from "vitest";
import {
  createMockSandbox,
  createSandbox,
  createScriptedExecutor,
  startMockSandbox,
  startSandbox,
  type StartedSandbox,
} from "../../src/sandbox";
import { createExecuteCodeTool } from "../../src/server";
import { finalOutput } from "./tool-runs";

let sandbox: StartedSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("startSandbox", () => {
  it("listens on loopback and accepts the server tool signed with the options it returns", async () => {
    sandbox = await startSandbox({
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

  it("is still there under the names it had while it was called a mock, for code written before", () => {
    expect(startMockSandbox).toBe(startSandbox);
    expect(createMockSandbox).toBe(createSandbox);
  });

  it("refuses a token signed with another key", async () => {
    sandbox = await startSandbox({ executor: createScriptedExecutor(() => ({ stdout: "no\n", exitCode: 0 })) });
    const other = await startSandbox({ executor: createScriptedExecutor(() => ({})) });
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
    sandbox = await startSandbox({ engine: "pyodide" });
    expect(sandbox.engine).toBe("pyodide");
    const health = (await (await fetch(`${sandbox.url}/v1/health`)).json()) as { executor?: string };
    expect(health.executor).toBe("pyodide");
  }, 60_000);
});
