// A run's files from the sandbox to the student: the mock sandbox keeps
// them for the run's owner, the tool names them in the result (never their
// bytes), and the file route serves them to that student alone.
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor, replyToToolResult, type ScriptedAnswer } from "../../src/harness";
import { createExecuteCodeTool, createRunFileRoute, type ExecuteCodeRunFile } from "../../src/server";
import { describeModelOutput } from "../../src/server/model-output";
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

async function setup(fileTtlMs?: number) {
  const sandbox = await startSandbox(
    createScriptedExecutor(() => answer),
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
    expect(text).toContain("- figure figure-1.png (image/png, 29 B): Squares, x: n");
    expect(text).toContain("- file data.csv (text/csv, 8 B), offered for download");
    expect(replyToToolResult(text)).toBe(
      "The program finished with exit code 0. Its first line of output is: drawn It drew one figure, Squares. It wrote data.csv, page.svg, which you can download under the output.",
    );
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
