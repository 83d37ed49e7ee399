// The README's "The server tool": examples/chat-route.ts answers a chat, and
// the program in it runs for real in the sandbox.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "../../../examples/chat-route";
import { usage } from "../../../examples/your-app";
import { chunksOf, python, startTutorSandbox, textOf, userMessage } from "./fixtures";

let sandbox: Awaited<ReturnType<typeof startTutorSandbox>> | undefined;
beforeAll(async () => {
  sandbox = await startTutorSandbox();
  // As the route reads them.
  vi.stubEnv("SANDBOX_URL", sandbox.url);
  vi.stubEnv("SANDBOX_SIGNING_KEY", sandbox.signingKey);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await sandbox?.close();
});

const chat = (text: string) =>
  POST(
    new Request("http://127.0.0.1/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [userMessage(text)] }),
    }),
  );

describe("the README's route handler with the server tool (examples/chat-route.ts)", () => {
  it("runs the student's program in the sandbox and streams its real output, the answer, its cost and a log line", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const response = await chat(python("print(sum(range(1, 101)))"));
      expect(response.status).toBe(200);
      const chunks = await chunksOf(response);
      const outputs = chunks.flatMap((chunk) =>
        chunk.type === "tool-output-available" && !chunk.preliminary ? [chunk.output] : [],
      );
      expect(outputs).toEqual([
        expect.objectContaining({ status: "completed", stdout: "5050\n", stderr: "", exitCode: 0 }),
      ]);
      expect(textOf(chunks)).toContain("Its first line of output is: 5050");

      expect(usage).toEqual([
        expect.objectContaining({ participantId: "student-42", tenantId: "course-7", chatbotId: "python-101" }),
      ]);
      const events = log.mock.calls.map(([event]) => event);
      expect(events).toEqual([
        expect.objectContaining({
          type: "execute_code",
          participantId: "student-42",
          status: "completed",
          exitCode: 0,
        }),
      ]);
      expect(events[0]).not.toHaveProperty("code");
    } finally {
      log.mockRestore();
    }
  });

  it("puts the course's prompt before the kit's in the model's instructions", async () => {
    const chunks = await chunksOf(await chat("What do you see?"));
    expect(textOf(chunks)).toContain("System: «You are the tutor of Python 101.");
  });
});
