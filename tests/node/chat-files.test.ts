// A student's files through the harness: the upload route, a message that
// carries them by reference, the scripted tutor's program that opens them,
// a second run that reads what the first wrote, and every file out of
// another student's reach. Runs on the CPython engine (scripts/setup.sh).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UIMessage } from "ai";
import { startHarness } from "../../src/harness";
import type { ExecuteCodeCompletedResult, UploadedFile } from "../../src/server";

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness({ port: 0, database: ":memory:", chunkDelayMs: 0, engine: "cpython" });
}, 120_000);
afterAll(() => h?.close());

const SCORES = "student,score\nada,90\nada,70\nbob,60\nbob,80\ncy,75\n";

/** One browser: its cookie, kept across requests. */
function browser(base = h.url) {
  let cookie = "";
  const request = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
    });
    const set = response.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0]!;
    return response;
  };
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return {
    request,
    json,
    async upload(files: Array<[string, string]>) {
      const form = new FormData();
      for (const [name, content] of files) form.append("file", new Blob([content]), name);
      const response = await request("/api/uploads", { method: "POST", body: form });
      return { status: response.status, body: (await response.json()) as { files?: UploadedFile[]; message?: string } };
    },
    async newChat() {
      const response = await json("/api/chats", {});
      return ((await response.json()) as { id: string }).id;
    },
    /** Sends a user message as the AI SDK's useChat does; answers the chat once its run has ended. */
    async say(chatId: string, text: string, files: UploadedFile[] = []) {
      const message = {
        id: `msg_${crypto.randomUUID()}`,
        role: "user",
        parts: [
          { type: "text", text },
          ...files.map((file) => ({ type: "file", url: file.url, mediaType: file.mediaType, filename: file.name })),
        ],
      };
      const response = await json("/api/chat", { id: chatId, messages: [message], trigger: "submit-message" });
      return { status: response.status, body: (await response.json()) as { messages: UIMessage[]; message?: string } };
    },
  };
}

const lastResult = (messages: UIMessage[]) => {
  const part = messages
    .flatMap((message) => message.parts)
    .findLast((candidate) => candidate.type === "tool-execute_code") as { output: ExecuteCodeCompletedResult };
  return part.output;
};

describe("a student's files in a chat", () => {
  it("runs on the attached CSV, carries what a run wrote to the next, and keeps every file from anyone else", async () => {
    const ada = browser();
    const chatId = await ada.newChat();
    const uploaded = await ada.upload([["scores.csv", SCORES]]);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.files).toEqual([
      {
        name: "scores.csv",
        storedName: "scores.csv",
        mediaType: "text/csv",
        size: SCORES.length,
        url: expect.stringMatching(/^\/api\/files\/[\w-]+\/[\w-]+$/),
      },
    ]);

    const first = await ada.say(chatId, "Plot the mean score per student", uploaded.body.files);
    expect(first.status).toBe(200);
    const result = lastResult(first.body.messages);
    expect(result.status).toBe("completed");
    expect(result.stdout).toMatch(/ada\s+80\.0\nbob\s+70\.0\ncy\s+75\.0/);
    expect(result.filesUsed).toEqual(["scores.csv"]);
    expect(result.files?.map((file) => file.name)).toEqual(["figure-1.png", "means.csv"]);
    // Stored by reference: the user's part names the file, the server's facts are on it, no bytes.
    const stored = first.body.messages.find((message) => message.role === "user")!.parts[1] as unknown as {
      filename: string;
      providerMetadata: { executeCodeUi: Record<string, unknown> };
    };
    expect(stored.filename).toBe("scores.csv");
    expect(stored.providerMetadata.executeCodeUi).toMatchObject({
      name: "scores.csv",
      size: SCORES.length,
      summary: "header row: student,score; 5 rows below it",
    });
    expect(JSON.stringify(first.body.messages)).not.toContain("ada,90");

    const second = await ada.say(chatId, "Who has the highest mean?");
    const next = lastResult(second.body.messages);
    expect(next.stdout).toBe("ada has the highest score: 80\n");
    expect(next.filesUsed).toEqual(["means.csv"]);

    // Ada's browser gets her files; another browser gets 404 for every one of them.
    const eve = browser();
    await eve.newChat();
    const files = [
      ...uploaded.body.files!.map((file) => file.url),
      ...result.files!.map((file) => `/api/files/${file.ref.sessionId}/${file.ref.fileId}`),
    ];
    for (const url of files) {
      expect((await ada.request(url)).status).toBe(200);
      expect((await eve.request(url)).status).toBe(404);
    }
    // A link that is no file route's, or not even a well-formed one, is a file gone: said, never a 500.
    const broken = await ada.say(chatId, "Plot the mean score per student", [
      { ...uploaded.body.files![0]!, url: "/api/files/%E0/abc" },
    ]);
    expect(broken.status).toBe(400);
    // Nor can Eve give Ada's file to a run of hers.
    const eveChat = await eve.newChat();
    const stolen = await eve.say(eveChat, "Plot the mean score per student", uploaded.body.files);
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe(
      '"scores.csv" is not a file the code runner keeps for you (it expired, or never reached it): attach it again.',
    );
  });

  it("a chat's files are bounded, and a chat whose code runs in the browser takes none", async () => {
    const small = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      engine: "cpython",
      chatLimits: { maxFileBytesPerChat: 100 },
    });
    try {
      const ada = browser(small.url);
      const chatId = await ada.newChat();
      const one = await ada.upload([["one.csv", "x".repeat(60)]]);
      expect((await ada.say(chatId, "```python\nprint(1)\n```", one.body.files)).status).toBe(200);
      const two = await ada.upload([["two.csv", "y".repeat(60)]]);
      const refused = await ada.say(chatId, "```python\nprint(2)\n```", two.body.files);
      expect(refused.status).toBe(413);
      expect(refused.body.message).toBe(
        'A chat\'s files may take at most 100 B together; "two.csv" does not fit. Start a new chat for more.',
      );
      // A chat that runs execute_code in the browser.
      const created = await ada.json("/api/chats", {
        tools: [
          {
            name: "execute_code",
            description: "Run Python in the browser.",
            input_schema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
          },
        ],
      });
      const browserChat = ((await created.json()) as { id: string }).id;
      const inBrowser = await ada.say(browserChat, "Plot the mean score per student", one.body.files);
      expect(inBrowser.status).toBe(400);
      expect(inBrowser.body.message).toBe(
        "Files need the server sandbox: this chat runs code in the browser, where they cannot go.",
      );
    } finally {
      await small.close();
    }
  });

  it("a new chat starts with no files", async () => {
    const ada = browser();
    const chatId = await ada.newChat();
    const said = await ada.say(chatId, "```python\nimport os\nprint(os.listdir('.'))\n```");
    expect(lastResult(said.body.messages).stdout).toBe("[]\n");
  });

  it("refuses a file over the cap with the cap in words, and an upload from another site", async () => {
    const ada = browser();
    const big = await ada.upload([["big.csv", "x".repeat(10 * 1024 * 1024 + 1)]]);
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('"big.csv" is 10 MB; a file may be at most 10 MB.');
    const form = new FormData();
    form.append("file", new Blob(["a\n1\n"]), "a.csv");
    const crossSite = await ada.request("/api/uploads", {
      method: "POST",
      body: form,
      headers: { origin: "https://elsewhere.example" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("says so when the sandbox cannot be reached, and stores nothing", async () => {
    const down = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      sandboxUrl: "http://127.0.0.1:9",
    });
    try {
      const form = new FormData();
      form.append("file", new Blob(["a\n1\n"]), "a.csv");
      const response = await fetch(`${down.url}/api/uploads`, { method: "POST", body: form });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { message: string }).message).toBe(
        "The files did not reach the sandbox: the code runner cannot be reached right now. Try again.",
      );
    } finally {
      await down.close();
    }
  });
});
