import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import { readRunFiles } from "../../src/sandbox/cpython/run-directory";
import { createExecuteCodeTool, type ExecuteCodeRunFile } from "../../src/server";
import { startSandbox } from "./sandbox-fixture";
import { finalOutput } from "./tool-runs";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000280000001e00806000000", "hex");
const caps = { maxFiles: 10, maxFileBytes: 1 << 20, maxTotalFileBytes: 1 << 20 };

describe("a figure drawn again as it was", () => {
  it("is read as the run's own, while a given file left as it was is not", async () => {
    const work = await mkdtemp(join(tmpdir(), "work-"));
    cleanups.push(() => rm(work, { recursive: true }));
    await writeFile(join(work, "figure-1.png"), png);
    await writeFile(join(work, "data.csv"), "a\n1\n");
    await writeFile(join(work, ".ecu-figures.json"), JSON.stringify({ "figure-1.png": "line" }));
    const given = [
      { name: "figure-1.png", bytes: png },
      { name: "data.csv", bytes: Buffer.from("a\n1\n") },
    ];
    const { files, filesCut } = await readRunFiles(work, caps, given);
    expect(files.map((file) => file.name)).toEqual(["figure-1.png"]);
    expect(filesCut).toBe(0);
  });

  it("comes back with the turn that drew it, given the chat's earlier one", async () => {
    const s = await startSandbox(
      createScriptedExecutor(() => ({
        stdout: "drawn\n",
        files: [{ name: "figure-1.png", mediaType: "image/png", alt: "line", bytes: png }],
      })),
    );
    cleanups.push(s.close);
    const tool = (files: ExecuteCodeRunFile[]) =>
      createExecuteCodeTool({
        sandboxUrl: s.url,
        signing: s.signing,
        participantId: "student",
        tenantId: "t",
        files: files.map((file) => ({ ...file, from: "run" as const })),
      });
    const first = (await finalOutput(tool([]), "plot()")) as { files: ExecuteCodeRunFile[] };
    const again = (await finalOutput(tool(first.files), "plot()")) as { files?: ExecuteCodeRunFile[] };
    expect(again.files?.map((file) => file.kind)).toEqual(["image"]);
  });
});
