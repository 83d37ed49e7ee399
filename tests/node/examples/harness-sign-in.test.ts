// The README's harness behind a host's own sign-in: examples/harness-sign-in.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSignedInHarness } from "../../../examples/harness-sign-in";
import { createScriptedExecutor } from "../../../src/sandbox";
import type { RunningHarness } from "../../../src/harness";

let harness: RunningHarness | undefined;
beforeAll(async () => {
  harness = await startSignedInHarness({
    port: 0,
    database: ":memory:",
    chunkDelayMs: 0,
    executor: createScriptedExecutor(() => ({ stdout: "42\n", exitCode: 0 })),
  });
});
afterAll(() => harness?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${harness!.url}${path}`, { headers });

describe("the harness with your own sign-in (examples/harness-sign-in.ts)", () => {
  it("answers 401 to a request without a session", async () => {
    const response = await get("/api/chats");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthenticated" });
  });

  it("takes the signed-in user as the participant, and sets no cookie of its own", async () => {
    const session = await get("/api/session", { cookie: "session=student-42" });
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({ participant: "student-42" });
    expect(session.headers.get("set-cookie")).toBeNull();

    const chats = await get("/api/chats", { cookie: "session=student-42" });
    expect(chats.status).toBe(200);
    expect(await chats.json()).toEqual({ chats: [] });
  });
});
