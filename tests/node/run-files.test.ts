// A run's files from the sandbox to the student: the sandbox keeps
// them for the run's owner, the tool names them in the result (never their
// bytes), and the file route serves them to that student alone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createScriptedExecutor, type ScriptedAnswer } from "../../src/sandbox";
import { replyToToolResult } from "../../src/harness/scripted-model";
import { createExecuteCodeTool, createRunFileRoute, type ExecuteCodeRunFile } from "../../src/server";
import { createRunFileStore } from "../../src/sandbox/run-file-store";
import { describeModelOutput } from "../../src/server/tool/model-output";
import { startSandbox } from "./sandbox-fixture";
import { finalOutput } from "./tool-runs";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A PNG's signature and header: 640 × 480.
const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000280000001e00806000000", "hex");
const answer: ScriptedAnswer = {
  stdout: "drawn\n",
  files: [
    { name: "figure-1.png", mediaType: "image/png", alt: "Squares, x: n", bytes: png },
    { name: "data.csv", mediaType: "text/csv", bytes: Buffer.from("a,b\n1,2\n") },
    {
      name: "page.svg",
      mediaType: "image/svg+xml",
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    },
  ],
};

async function setup(fileTtlMs?: number, ran: ScriptedAnswer = answer) {
  const sandbox = await startSandbox(
    createScriptedExecutor(() => ran),
    fileTtlMs === undefined ? {} : { fileTtlMs },
  );
  cleanups.push(sandbox.close);
  const tool = (participantId: string) =>
    createExecuteCodeTool({ sandboxUrl: sandbox.url, signing: sandbox.signing, participantId, tenantId: "course-1" });
  const route = createRunFileRoute({ sandboxUrl: sandbox.url, signing: sandbox.signing, tenantId: "course-1" });
  const get = (file: ExecuteCodeRunFile, participantId: string) =>
    route.handle(new Request(`http://app.test/api/files/${file.ref.sessionId}/${file.ref.fileId}`), { participantId });
  return { tool, get };
}

describe("a run's files", () => {
  it("the result names each file with its type, size, kind and a PNG's pixel size, and holds no bytes", async () => {
    const { tool } = await setup();
    const result = (await finalOutput(tool("student-1"), "draw()")) as { files: ExecuteCodeRunFile[] };
    expect(
      result.files.map(({ ref, ...file }) => ({
        ...file,
        ref: typeof ref.sessionId === "string" && typeof ref.fileId === "string",
      })),
    ).toEqual([
      {
        name: "figure-1.png",
        mediaType: "image/png",
        size: png.length,
        kind: "image",
        alt: "Squares, x: n",
        width: 640,
        height: 480,
        ref: true,
      },
      { name: "data.csv", mediaType: "text/csv", size: 8, kind: "file", ref: true },
      { name: "page.svg", mediaType: "image/svg+xml", size: 71, kind: "file", ref: true },
    ]);
    expect(JSON.stringify(result)).not.toContain("iVBOR");
  });

  it("the model reads them in words, and the scripted model names the figure", async () => {
    const { tool } = await setup();
    const text = describeModelOutput(await finalOutput(tool("student-1"), "draw()"));
    expect(text).toContain('- figure figure-1.png (image/png, 29 B), described by the program as "Squares, x: n');
    expect(text).toContain("- file data.csv (text/csv, 8 B), offered for download");
    expect(replyToToolResult(text)).toBe(
      "The program ran without errors. Its first line of output is: drawn. It drew one figure, Squares. It wrote data.csv, page.svg, which you can download under the output.",
    );
  });

  it("a figure saved with savefig and then shown is one image, under the name the program gave it", async () => {
    const other = Buffer.concat([png, Buffer.from([0])]);
    const { tool } = await setup(undefined, {
      files: [
        { name: "figure-1.png", mediaType: "image/png", alt: "Squares, x: n", bytes: png },
        { name: "figure-2.png", mediaType: "image/png", alt: "Cubes", bytes: other },
        // The same figure shown a second time: shown twice, so it stays.
        { name: "figure-3.png", mediaType: "image/png", alt: "Squares, again", bytes: png },
        { name: "squares.png", mediaType: "image/png", bytes: png },
      ],
    });
    const output = await finalOutput(tool("student-1"), "plt.savefig('squares.png'); plt.show()");
    const { files } = output as { files: ExecuteCodeRunFile[] };
    // The second figure differs by a byte from every saved file: it stays.
    expect(files.map(({ name, alt }) => ({ name, alt }))).toEqual([
      { name: "figure-2.png", alt: "Cubes" },
      { name: "figure-3.png", alt: "Squares, again" },
      { name: "squares.png", alt: "Squares, x: n" },
    ]);
    expect(replyToToolResult(describeModelOutput(output))).toContain("It drew 3 figures, Cubes, Squares, Squares.");
  });

  it("the route serves a raster image inline, and everything else, SVG included, as a download that is never sniffed", async () => {
    const { tool, get } = await setup();
    const { files } = (await finalOutput(tool("student-1"), "draw()")) as { files: ExecuteCodeRunFile[] };
    const [image, csv, svg] = await Promise.all(files.map((file) => get(file, "student-1")));
    expect(image!.status).toBe(200);
    expect(Buffer.from(await image!.arrayBuffer())).toEqual(png);
    expect(Object.fromEntries(image!.headers)).toMatchObject({
      "content-type": "image/png",
      "content-disposition": `inline; filename="figure-1.png"; filename*=UTF-8''figure-1.png`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; img-src 'self'; sandbox",
      "cache-control": "private, max-age=600",
    });
    expect(await csv!.text()).toBe("a,b\n1,2\n");
    expect(csv!.headers.get("content-disposition")).toMatch(/^attachment; filename="data.csv"/);
    expect(svg!.headers.get("content-disposition")).toMatch(/^attachment; filename="page.svg"/);
  });

  it("another student gets the same 404 as for a file that never was", async () => {
    const { tool, get } = await setup();
    const { files } = (await finalOutput(tool("student-1"), "draw()")) as { files: ExecuteCodeRunFile[] };
    const stranger = await get(files[0]!, "student-2");
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({
      error: "not_found",
      message: "This file does not exist, or it has expired.",
    });
    const invented = await get(
      { ...files[0]!, ref: { sessionId: files[0]!.ref.sessionId, fileId: "nope" } },
      "student-1",
    );
    expect(invented.status).toBe(404);
  });

  it("a file past its time to live is a 404 with a clear message", async () => {
    const { tool, get } = await setup(200);
    const { files } = (await finalOutput(tool("student-1"), "draw()")) as { files: ExecuteCodeRunFile[] };
    await new Promise((resolve) => setTimeout(resolve, 400));
    const expired = await get(files[0]!, "student-1");
    expect(expired.status).toBe(404);
    expect((await expired.json()).message).toBe("This file does not exist, or it has expired.");
  });

  it("a path that is not a file reference is a 404, and the sandbox being down is a 502 that says so", async () => {
    const { get } = await setup();
    const bad = await get(
      { name: "x", mediaType: "x/y", size: 0, kind: "file", ref: { sessionId: "../../etc", fileId: "passwd" } },
      "student-1",
    );
    expect(bad.status).toBe(404);
    const down = createRunFileRoute({
      sandboxUrl: "http://127.0.0.1:9",
      signing: (await startSandbox(createScriptedExecutor(() => ({})))).signing,
      tenantId: "t",
    });
    const response = await down.handle(new Request("http://app.test/api/files/a/b"), { participantId: "p" });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toMatch(/cannot be reached/);
  });
});

describe("the files kept for their owners", () => {
  afterEach(() => vi.useRealTimers());
  const file = (name: string, size: number) => ({ name, mediaType: "text/plain", bytes: new Uint8Array(size) });
  let runs = 0;
  /** One run of `owner` leaving `sizes`; its entries and what was not kept. */
  const run = (store: ReturnType<typeof createRunFileStore>, owner: string, ...sizes: number[]) =>
    runFrom(store, undefined, owner, ...sizes);
  /** As `run`, from `client` (the address the token names). */
  const runFrom = (
    store: ReturnType<typeof createRunFileStore>,
    client: string | undefined,
    owner: string,
    ...sizes: number[]
  ) => {
    const sessionId = `run-${++runs}`;
    const kept = store.put(
      sessionId,
      owner,
      sizes.map((size, n) => file(`f${n}.txt`, size)),
      client,
    );
    return { sessionId, ...kept, get: (n = 0) => store.get(sessionId, kept.entries[n]!.id, owner) };
  };

  it("one owner flooding does not evict another owner's file before its time to live", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = createRunFileStore({ ttlMs: 600_000, maxBytes: 1_000, maxBytesPerOwner: 400 });
    const alices = run(store, "alice", 100);
    const floods = Array.from({ length: 50 }, () => run(store, "mallory", 100, 100));
    vi.advanceTimersByTime(599_000);
    for (let i = 0; i < 50; i++) run(store, "mallory", 100);
    // Alice's figure is there for its whole ten minutes, whatever Mallory runs.
    expect(alices.get()?.name).toBe("f0.txt");
    // Mallory keeps only her newest files, within her share.
    const usage = store.usage();
    expect(usage.owners.get("mallory")).toBe(400);
    expect(usage.total).toBe(500);
    expect(floods[0]!.get()).toBeNull();
    expect(floods.every((flood) => flood.notKept === 0)).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(alices.get()).toBeNull();
  });

  it("a full store makes room from whoever holds the most, never from someone who holds less", () => {
    const store = createRunFileStore({ maxBytes: 500, maxBytesPerOwner: 300 });
    const a = run(store, "a", 300);
    const b = run(store, "b", 150, 50);
    // c's two files fit once a, who holds the most, loses a file; b keeps everything.
    const c = run(store, "c", 40, 10);
    expect(c.notKept).toBe(0);
    expect(a.get()).toBeNull();
    expect([b.get(0)?.bytes.length, b.get(1)?.bytes.length]).toEqual([150, 50]);
    // An owner who holds files makes room from their own first: b's older run goes for b's new one.
    const b2 = run(store, "b", 150, 100);
    expect(b2.notKept).toBe(0);
    expect(b.get(0)).toBeNull();
    expect(c.get(0)?.bytes.length).toBe(40);
  });

  it("eight participants who fill the store never keep a newcomer's figure out", () => {
    const store = createRunFileStore({ maxBytes: 256, maxBytesPerOwner: 32 });
    for (let flooder = 0; flooder < 8; flooder++)
      for (let runs = 0; runs < 4; runs++) run(store, `flooder-${flooder}`, 8);
    expect(store.usage().total).toBe(256);
    const figure = run(store, "newcomer", 3);
    expect(figure.notKept).toBe(0);
    expect(figure.get()?.bytes.length).toBe(3);
  });

  it("participants who fill the store never push out the older files of one who holds less", () => {
    const store = createRunFileStore({ maxBytes: 256, maxBytesPerOwner: 32 });
    const dataset = run(store, "student", 4);
    for (let flooder = 0; flooder < 14; flooder++)
      for (let runs = 0; runs < 4; runs++) run(store, `flooder-${flooder}`, 8);
    // The student's new figure comes from the flooders' room, and the dataset of an earlier run stays.
    const figure = run(store, "student", 10);
    expect(figure.notKept).toBe(0);
    expect(dataset.get()?.bytes.length).toBe(4);
    expect(store.usage().owners.get("student")).toBe(14);
  });

  it("one client's many cookies give way as one, and students behind one address among themselves", () => {
    const store = createRunFileStore({ maxBytes: 300, maxBytesPerOwner: 200 });
    const outsider = runFrom(store, "elsewhere", "ada", 60);
    const a = runFrom(store, "campus", "a", 110);
    const b = runFrom(store, "campus", "b", 80);
    // The campus holds the most (and more with d's new file): its largest holder, a, gives way; b keeps.
    const d = runFrom(store, "campus", "d", 70);
    expect(d.notKept).toBe(0);
    expect(a.get()).toBeNull();
    expect([outsider.get()?.bytes.length, b.get()?.bytes.length]).toEqual([60, 80]);
    // Cookies of one client, each holding less than Ada, never push out her file.
    for (let n = 0; n < 6; n++) runFrom(store, "mallory", `cookie-${n}`, 50);
    expect(outsider.get()?.bytes.length).toBe(60);
  });

  it("a file is not kept where room could only come from those who hold no more than its owner would", () => {
    const store = createRunFileStore({ maxBytes: 300, maxBytesPerOwner: 200 });
    const held = ["x", "y", "z"].map((owner) => run(store, owner, 100));
    const big = run(store, "w", 150);
    expect(big.notKept).toBe(1);
    expect(held.map((kept) => kept.get()?.bytes.length)).toEqual([100, 100, 100]);
    const small = run(store, "w", 50);
    expect(small.notKept).toBe(0);
    expect(held.filter((kept) => kept.get() === null)).toHaveLength(1);
  });

  it("a file larger than an owner's share is not kept, and the owner's other files stay", () => {
    const store = createRunFileStore({ maxBytes: 1_000, maxBytesPerOwner: 100 });
    const small = run(store, "a", 60);
    const mixed = run(store, "a", 101, 30);
    expect(mixed.notKept).toBe(1);
    expect(mixed.entries.map((entry) => entry.size)).toEqual([30]);
    expect(small.get()?.bytes.length).toBe(60);
    // Newer files push out the owner's older runs, never the run's own: once both older runs are gone, the
    // last 20 bytes find only this run's 90 to drop, and are not kept.
    const own = run(store, "a", 50, 40, 20);
    expect(own.notKept).toBe(1);
    expect(small.get()).toBeNull();
    expect(mixed.get()).toBeNull();
    expect(own.get(1)?.bytes.length).toBe(40);
  });

  it("the result says how many files were not kept, and the model reads it", async () => {
    const sandbox = await startSandbox(
      createScriptedExecutor(() => answer),
      { maxFileStoreBytesPerUser: 20 },
    );
    cleanups.push(sandbox.close);
    const tool = createExecuteCodeTool({
      sandboxUrl: sandbox.url,
      signing: sandbox.signing,
      participantId: "student-1",
      tenantId: "course-1",
    });
    const result = (await finalOutput(tool, "draw()")) as { files: ExecuteCodeRunFile[]; filesCut?: number };
    // The 29-byte PNG and the 71-byte SVG do not fit a 20-byte share; the 8-byte CSV does.
    expect(result.files.map((kept) => kept.name)).toEqual(["data.csv"]);
    expect(result.filesCut).toBe(2);
    const text = describeModelOutput(result);
    expect(text).toContain("- file data.csv (text/csv, 8 B), offered for download");
    expect(text).toContain(
      "[2 files the program left were not kept (past the code runner's limits on files), so the student cannot see or download them]",
    );
  });
});
