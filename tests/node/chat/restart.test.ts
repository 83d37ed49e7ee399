// The store is the only coordination: a harness stopped while a call waits
// for its client's result, and started again on the same SQLite file, takes
// the result and the chat goes on.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../../src/sandbox";
import { startHarness } from "../../../src/harness";
import { executeCodeClientTool } from "../../../src/client-executor/tool-spec";
import { completed } from "./fixtures";

const dir = mkdtempSync(path.join(tmpdir(), "ecu-restart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a restart while a call waits", () => {
  it("loses nothing: the same browser finds the waiting chat, answers, and the chat resumes", async () => {
    const programs: string[] = [];
    const start = () =>
      startHarness({
        port: 0,
        dataDir: dir,
        chunkDelayMs: 0,
        executor: createScriptedExecutor((code) => {
          programs.push(code);
          return { stdout: "from the server sandbox\n" };
        }),
      });
    let cookie = "";
    const request = async (url: string, method: string, body?: unknown) => {
      const response = await fetch(url, {
        method,
        headers: { "content-type": "application/json", accept: "application/json", ...(cookie ? { cookie } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const set = response.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0]!;
      return { status: response.status, body: (await response.json()) as any };
    };

    const first = await start();
    const created = await request(`${first.url}/api/chats`, "POST", { tools: [executeCodeClientTool] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const asked = await request(`${first.url}/api/chats/${id}/messages`, "POST", {
      text: "```python\nprint(6 * 7)\n```",
    });
    expect(asked.body.status).toBe("requires_action");
    const [call] = asked.body.required_action.tool_calls;
    expect(call).toMatchObject({ name: "execute_code", input: { code: "print(6 * 7)" } });
    await first.close();

    const second = await start();
    try {
      const read = await request(`${second.url}/api/chats/${id}`, "GET");
      expect(read.status).toBe(200);
      expect(read.body.status).toBe("requires_action");
      const answered = await request(`${second.url}/api/chats/${id}/tool-results`, "POST", {
        results: [{ tool_call_id: call.tool_call_id, output: completed("42\n") }],
      });
      expect(answered.status).toBe(200);
      expect(answered.body.status).toBe("idle");
      expect(answered.body.messages.at(-1).parts.at(-1).text).toBe(
        "The program ran without errors. Its first line of output is: 42.",
      );
      // The browser ran it; the server's sandbox never did.
      expect(programs).toEqual([]);
    } finally {
      await second.close();
    }
  }, 60_000);
});
