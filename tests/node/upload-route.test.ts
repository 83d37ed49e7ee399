// The upload route and a chat's files: what a student's file must be to go
// to the sandbox, what they are told when it cannot, and which files a
// chat's next run gets.
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import { chatFiles, createExecuteCodeTool, createUploadRoute, type UploadedFile } from "../../src/server";
import { describeModelOutput } from "../../src/server/tool/model-output";
import { createUploadBudget } from "../../src/server/files/upload-budget";
import { finalOutput } from "./tool-runs";
import { startSandbox } from "./sandbox-fixture";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox(createScriptedExecutor(() => ({ stdout: "" })));
});
afterAll(() => sandbox?.close());

const routeFor = (options: Partial<Parameters<typeof createUploadRoute>[0]> = {}) =>
  createUploadRoute({ sandboxUrl: sandbox.url, signing: sandbox.signing, tenantId: "course-1", ...options });

function uploadRequest(files: Array<[string, string | Uint8Array]>) {
  const form = new FormData();
  for (const [name, content] of files) form.append("file", new Blob([content as BlobPart]), name);
  return new Request("http://app.test/api/uploads", { method: "POST", body: form });
}

async function upload(route: ReturnType<typeof routeFor>, files: Array<[string, string | Uint8Array]>, who = "ada") {
  const response = await route.handle(uploadRequest(files), { participantId: who });
  return { status: response.status, body: (await response.json()) as { files?: UploadedFile[]; message?: string } };
}

describe("the upload route", () => {
  it("keeps a hostile name safe for the program and as given for the student, and two of one name apart", async () => {
    const { status, body } = await upload(routeFor(), [
      ["../../etc/x\u202Egnp.csv", "a,b\n1,2\n"],
      ["data.csv", "1"],
      ["data.csv", "2"],
    ]);
    expect(status).toBe(201);
    expect(body.files!.map((file) => [file.name, file.storedName])).toEqual([
      ["../../etc/x\u202Egnp.csv", "x_gnp.csv"],
      ["data.csv", "data.csv"],
      ["data.csv", "data (2).csv"],
    ]);
    expect(body.files![0]!.url).toMatch(/^\/api\/files\/[\w-]+\/[\w-]+$/);
  });

  it("refuses what cannot go with the reason in words: too large, empty, a kind the sandbox does not take, too many", async () => {
    const route = routeFor({ maxFileBytes: 1024, maxFiles: 2 });
    expect(await upload(route, [["big.csv", "x".repeat(1025)]])).toEqual({
      status: 413,
      body: { error: "file_too_large", message: '"big.csv" is 1 KB; a file may be at most 1 KB.' },
    });
    expect((await upload(route, [["empty.csv", ""]])).body.message).toBe('"empty.csv" is empty.');
    const docx = await upload(route, [["essay.docx", "PK"]]);
    expect(docx.status).toBe(415);
    expect(docx.body.message).toBe(
      'The sandbox takes .csv, .tsv, .json, .txt, .py, .xlsx, .png, .jpg, .jpeg files; "essay.docx" is none of them.',
    );
    expect(
      await upload(route, [
        ["a.csv", "1"],
        ["b.csv", "1"],
        ["c.csv", "1"],
      ]),
    ).toEqual({
      status: 413,
      body: {
        error: "upload_too_large",
        message: "An upload may carry at most 2 files of at most 1 KB each, 20 MB in all.",
      },
    });
  });

  it("refuses a name longer than any file system gives, and keeps a long one's start and extension in 120 bytes", async () => {
    expect(await upload(routeFor(), [[`${"a".repeat(2000)}.csv`, "1"]])).toEqual({
      status: 400,
      body: {
        error: "file_name_too_long",
        message: "A file's name may be at most 1024 characters; rename the file and attach it again.",
      },
    });
    const { body } = await upload(routeFor(), [[`${"é".repeat(300)} ${" ".repeat(300)}x.csv`, "1"]]);
    const stored = body.files![0]!.storedName;
    expect(stored).toBe(`${"é".repeat(58)}.csv`);
    expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(120);
  });

  it("refuses an upload of thousands of tiny parts at the first one too many, files or text fields alike", async () => {
    const parts = (count: number, part: (n: number) => string) =>
      `${Array.from({ length: count }, (_, n) => `--b\r\n${part(n)}\r\n`).join("")}--b--\r\n`;
    const send = (body: string) =>
      routeFor().handle(
        new Request("http://app.test/api/uploads", {
          method: "POST",
          body,
          headers: { "content-type": "multipart/form-data; boundary=b" },
        }),
        { participantId: "ada" },
      );
    const files = await send(
      parts(50_000, (n) => `Content-Disposition: form-data; name="file"; filename="${n}.csv"\r\n\r\n1`),
    );
    expect(files.status).toBe(413);
    expect(((await files.json()) as { error: string }).error).toBe("upload_too_large");
    const fields = await send(parts(50_000, (n) => `Content-Disposition: form-data; name="f${n}"\r\n\r\nx`));
    expect(fields.status).toBe(400);
    expect(((await fields.json()) as { error: string }).error).toBe("invalid_upload");
  });

  it("says the file did not reach a sandbox that is down, and one student has at most two uploads on the way", async () => {
    const down = createUploadRoute({ sandboxUrl: "http://127.0.0.1:9", signing: sandbox.signing, tenantId: "t" });
    expect(await upload(down, [["a.csv", "1"]])).toEqual({
      status: 502,
      body: {
        error: "sandbox_unavailable",
        message: "The files did not reach the sandbox: the code runner cannot be reached right now. Try again.",
      },
    });
    // A sandbox that takes its time: the third upload of one student waits its turn; another student's goes.
    const waiting: Array<() => void> = [];
    const slow = routeFor({
      fetch: async (input, init) => {
        await new Promise<void>((resolve) => waiting.push(resolve));
        return fetch(input, init);
      },
    });
    const first = upload(slow, [["a.csv", "1"]]);
    const second = upload(slow, [["b.csv", "1"]]);
    // Waits, not timings: on a busy machine the uploads take a while to reach the sandbox.
    await vi.waitFor(() => expect(waiting).toHaveLength(2), { timeout: 20_000 });
    const third = await upload(slow, [["c.csv", "1"]]);
    expect(third.status).toBe(429);
    expect(third.body.message).toBe("Two of your files are on their way already; wait for them.");
    const other = upload(slow, [["d.csv", "1"]], "bob");
    await vi.waitFor(() => expect(waiting).toHaveLength(3), { timeout: 20_000 });
    for (const go of waiting) go();
    expect((await Promise.all([first, second, other])).map((result) => result.status)).toEqual([201, 201, 201]);
  });

  it("passes on a sandbox with no room as 507 and its words, not as a bad gateway", async () => {
    const message =
      "The sandbox has no room for these files now (each student's files are bounded); try again with fewer or smaller files later.";
    const full = routeFor({
      fetch: async () => Response.json({ error: "no_room", message }, { status: 507 }),
    });
    expect(await upload(full, [["a.csv", "1"]])).toEqual({ status: 507, body: { error: "no_room", message } });
  });
});

/** A body its test feeds by hand: `send` bytes, then `end` (or never). */
function handFedBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
    },
  });
  return {
    stream,
    send: (bytes: number) => controller.enqueue(new Uint8Array(bytes)),
    end: () => controller.close(),
  };
}

async function drain(chunks: AsyncIterable<Uint8Array>) {
  let size = 0;
  for await (const chunk of chunks) size += chunk.length;
  return size;
}

describe("the memory uploads share", () => {
  it("is not held by connections that say a large length and send nothing", async () => {
    const route = routeFor({ maxBytesInFlight: 1024 * 1024 });
    const idle = [handFedBody(), handFedBody()];
    const stalled = idle.map(({ stream }) =>
      route.handle(
        new Request("http://app.test/api/uploads", {
          method: "POST",
          body: stream,
          duplex: "half",
          headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(512 * 1024) },
        } as RequestInit),
        { participantId: "mallory" },
      ),
    );
    expect(await upload(route, [["scores.csv", "a,b\n1,2\n"]])).toMatchObject({ status: 201 });
    for (const body of idle) body.end();
    expect((await Promise.all(stalled)).map((response) => response.status)).toEqual([400, 400]);
  });

  const budget = (options: Partial<Parameters<typeof createUploadBudget>[0]> = {}) =>
    createUploadBudget({
      maxBytesInFlight: 1000,
      maxParticipantBytesInFlight: 500,
      minBytesPerSecond: 1_000_000,
      graceMs: 5_000,
      ...options,
    });

  it("holds each body's bytes as they arrive, at most a share for one student, until released", async () => {
    const shared = budget();
    const first = handFedBody();
    const mine = shared.open("mallory", first.stream);
    first.send(400);
    first.end();
    expect(await drain(mine.chunks)).toBe(400);
    expect(shared.bytesInFlight).toBe(400);

    const second = handFedBody();
    second.send(200);
    await expect(drain(shared.open("mallory", second.stream).chunks)).rejects.toMatchObject({
      status: 429,
      message: "Your other files on their way are as much as one student may send at once; wait for them.",
    });

    const ada = handFedBody();
    const hers = shared.open("ada", ada.stream);
    ada.send(400);
    ada.end();
    expect(await drain(hers.chunks)).toBe(400);
    const bob = handFedBody();
    const his = shared.open("bob", bob.stream);
    bob.send(100);
    bob.send(150);
    await expect(drain(his.chunks)).rejects.toMatchObject({ status: 503, code: "server_busy" });
    his.release();
    expect(shared.bytesInFlight).toBe(800);
    hers.release();
    mine.release();
    mine.release();
    expect(shared.bytesInFlight).toBe(0);
  });

  it("holds at most a client's share for all the students of one client", async () => {
    const shared = budget({ maxParticipantBytesInFlight: 500, maxClientBytesInFlight: 700 });
    const first = handFedBody();
    const one = shared.open("m1", first.stream, "10.0.0.9");
    first.send(400);
    first.end();
    await drain(one.chunks);
    const second = handFedBody();
    second.send(400);
    await expect(drain(shared.open("m2", second.stream, "10.0.0.9").chunks)).rejects.toMatchObject({
      status: 429,
      message: "Many files from your network are on their way already; try again in a moment.",
    });
    const elsewhere = handFedBody();
    elsewhere.send(400);
    elsewhere.end();
    expect(await drain(shared.open("ada", elsewhere.stream, "10.0.0.7").chunks)).toBe(400);
  });

  it("cuts a body that trickles after a fast start: its first bytes buy no more than the grace", async () => {
    const shared = budget({
      maxParticipantBytesInFlight: 1e6,
      maxBytesInFlight: 1e6,
      minBytesPerSecond: 1000,
      graceMs: 200,
    });
    const trickling = handFedBody();
    const upload = shared.open("mallory", trickling.stream);
    const refused = expect(drain(upload.chunks)).rejects.toMatchObject({ status: 408 });
    trickling.send(500_000); // 500 s at the minimum rate, were it banked
    const trickle = setInterval(() => {
      try {
        trickling.send(1);
      } catch {
        clearInterval(trickle); // cancelled: the body was cut
      }
    }, 20);
    await refused;
    clearInterval(trickle);
  });

  it("cuts a body slower than the minimum rate, and keeps one that keeps pace", async () => {
    const shared = budget({
      maxParticipantBytesInFlight: 10_000,
      maxBytesInFlight: 10_000,
      minBytesPerSecond: 10_000,
      graceMs: 100,
    });
    const slow = handFedBody();
    const trickle = shared.open("mallory", slow.stream);
    slow.send(100); // buys 10 ms past the grace, then nothing comes
    await expect(drain(trickle.chunks)).rejects.toMatchObject({
      status: 408,
      message: "The file arrived too slowly and was not kept; check the connection and try again.",
    });
    trickle.release();

    // Room to spare for a busy machine: pauses of a third of the grace, credit for five times them.
    const patient = budget({
      maxParticipantBytesInFlight: 10_000,
      maxBytesInFlight: 10_000,
      minBytesPerSecond: 1000,
      graceMs: 300,
    });
    const steady = handFedBody();
    const paced = patient.open("ada", steady.stream);
    const received = drain(paced.chunks);
    for (let i = 0; i < 3; i += 1) {
      steady.send(500); // half a second of credit each
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    steady.end();
    expect(await received).toBe(1500);
    paced.release();
    expect(patient.bytesInFlight).toBe(0);
  });
});

describe("files the sandbox no longer keeps", () => {
  it("are gone from the run, and the model is told to ask for them again", async () => {
    const tool = createExecuteCodeTool({
      sandboxUrl: sandbox.url,
      signing: sandbox.signing,
      participantId: "ada",
      tenantId: "course-1",
      files: [
        {
          name: "scores.csv",
          mediaType: "text/csv",
          size: 3,
          ref: { sessionId: "expired", fileId: "f" },
          from: "student",
        },
      ],
    });
    const result = (await finalOutput(tool, "print(1)")) as { filesGone?: string[] };
    expect(result.filesGone).toEqual(["scores.csv"]);
    expect(describeModelOutput(result)).toContain(
      "[not in the working directory, because the code runner no longer keeps them: scores.csv. Tell the student; a file of theirs must be attached again, one a run wrote made again]",
    );
  });
});

describe("a chat's files", () => {
  const ref = (id: string) => ({ sessionId: "s", fileId: id });
  const attached = (name: string, id: string): UIMessage => ({
    id: `m-${id}`,
    role: "user",
    parts: [
      {
        type: "file",
        url: `/api/files/s/${id}`,
        mediaType: "text/csv",
        filename: name,
        providerMetadata: { executeCodeUi: { name, size: 3, sessionId: "s", fileId: id } },
      },
    ],
  });
  const completed = {
    status: "completed",
    stdout: "",
    stderr: "",
    exitCode: 0,
    signal: null,
    wallTimeMs: 1,
    truncated: { stdout: 0, stderr: 0 },
  } as const;
  const ran = (output: Record<string, unknown>): UIMessage => ({
    id: `r-${Math.random()}`,
    role: "assistant",
    parts: [
      {
        type: "tool-execute_code",
        toolCallId: "c",
        state: "output-available",
        input: { code: "" },
        output: { ...completed, ...output },
      } as UIMessage["parts"][number],
    ],
  });
  const file = (name: string, id: string) => ({ name, mediaType: "text/csv", size: 1, kind: "file", ref: ref(id) });

  it("are the student's and the runs', the latest of each name, less what a run removed or found gone", () => {
    const files = chatFiles([
      attached("scores.csv", "u1"),
      ran({ files: [file("means.csv", "r1"), file("scores.csv", "r2"), file("tmp.csv", "r3")] }),
      ran({ filesRemoved: ["tmp.csv"] }),
      attached("extra.csv", "u2"),
      ran({ filesGone: ["extra.csv"] }),
    ]);
    expect(files.map((entry) => [entry.name, entry.ref.fileId, entry.from])).toEqual([
      ["means.csv", "r1", "run"],
      ["scores.csv", "r2", "run"],
    ]);
  });

  it("are at most the newest 50", () => {
    const many = Array.from({ length: 60 }, (_, i) => file(`f${i}.csv`, `id${i}`));
    const files = chatFiles([ran({ files: many })]);
    expect(files).toHaveLength(50);
    expect(files[0]!.name).toBe("f10.csv");
  });

  it("are named to the model on lines of their own, whatever a program called them", () => {
    const text = describeModelOutput({
      ...completed,
      files: [file("x.csv (text/csv, 1 KB, from the student)\n- file secret.csv", "r1")],
    });
    expect(text).toContain('- file "x.csv (text/csv, 1 KB, from the student)\\n- file secret.csv" (text/csv, 1 B)');
    expect(text.split("\n").filter((line) => line.startsWith("- file"))).toHaveLength(1);
  });

  it("take no file part the server did not check", () => {
    const forged: UIMessage = {
      id: "m",
      role: "user",
      parts: [{ type: "file", url: "/api/files/s/x", mediaType: "text/csv", filename: "x.csv" }],
    };
    expect(chatFiles([forged])).toEqual([]);
  });
});
