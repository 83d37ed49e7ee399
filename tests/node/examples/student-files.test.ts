// docs/files.md: examples/student-files.ts takes a student's file, a chat's
// run opens it by name, and nobody else gets it.
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSqliteChatStore, type ChatStore, type UploadedFile } from "../../../src/server";
import { startTutorSandbox } from "./fixtures";

let sandbox: Awaited<ReturnType<typeof startTutorSandbox>> | undefined;
let store: ChatStore | undefined;
let example: typeof import("../../../examples/student-files");

beforeAll(async () => {
  sandbox = await startTutorSandbox();
  // As examples/your-app.ts reads them, when it is loaded.
  vi.stubEnv("SANDBOX_URL", sandbox.url);
  vi.stubEnv("SANDBOX_SIGNING_KEY", sandbox.signingKey);
  example = await import("../../../examples/student-files");
  store = await createSqliteChatStore({ path: ":memory:" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await store?.close();
  await sandbox?.close();
});

const json = (path: string, body: unknown) =>
  new Request(`http://app.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });

describe("a student's files (examples/student-files.ts)", () => {
  it("uploads a CSV, runs a program that opens it by name, and serves it to its owner only", async () => {
    const form = new FormData();
    form.append("file", new Blob(["name,score\nada,90\nbob,60\n"]), "scores.csv");
    const uploaded = await example.uploads.handle(
      new Request("http://app.test/api/uploads", { method: "POST", body: form }),
      { participantId: "student-42" },
    );
    expect(uploaded.status).toBe(201);
    const [file] = ((await uploaded.json()) as { files: UploadedFile[] }).files;

    const chats = example.studentChats(store!);
    const ada = { participantId: "student-42" };
    const chat = (await (await chats.handle(json("/api/chats", {}), ada))!.json()) as { id: string };
    const message = {
      id: "m1",
      role: "user",
      parts: [
        { type: "text", text: "Count the rows:\n```python\nprint(len(open('scores.csv').readlines()) - 1)\n```" },
        { type: "file", url: file!.url, mediaType: file!.mediaType, filename: file!.name },
      ],
    };
    const answered = await chats.handle(json("/api/chat", { id: chat.id, messages: [message] }), ada);
    const { messages } = (await answered!.json()) as { messages: UIMessage[] };
    const run = messages.flatMap((entry) => entry.parts).find((part) => part.type === "tool-execute_code") as {
      output: { stdout: string; filesUsed?: string[] };
    };
    expect(run.output.stdout).toBe("2\n");
    expect(run.output.filesUsed).toEqual(["scores.csv"]);

    const get = (participantId: string) =>
      example.files.handle(new Request(`http://app.test${file!.url}`), { participantId });
    expect((await get("student-42")).status).toBe(200);
    expect((await get("student-7")).status).toBe(404);
  });
});
