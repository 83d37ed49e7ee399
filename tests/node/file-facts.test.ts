// What the chat reads of an attached file each time a message carries it:
// its facts and table summary, made once when it arrived, never its bytes
// again (a 10 MB file attached to many messages held the server's thread).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedExecutor } from "../../src/sandbox";
import { createSandboxFiles } from "../../src/server";
import { startSandbox } from "./sandbox-fixture";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox(createScriptedExecutor(() => ({ stdout: "" })));
});
afterAll(() => sandbox?.close());

/** The sandbox's file client, counting the requests it sends by method. */
function countedFiles(fetchThrough: typeof fetch = fetch) {
  const sent: string[] = [];
  const files = createSandboxFiles({
    sandboxUrl: sandbox.url,
    signing: sandbox.signing,
    tenantId: "course-1",
    fetch: (input, init) => {
      sent.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname.split("/")[2]}`);
      return fetchThrough(input, init);
    },
  });
  return { files, sent };
}

const csv = (rows: number) => new File([`n\n${"1\n".repeat(rows)}`], "big.csv", { type: "text/csv" });

describe("an attached file's facts", () => {
  it("come from the summary the sandbox made on upload, without the file's bytes", async () => {
    const { files, sent } = countedFiles();
    const [kept] = await files.upload("ada", [
      { file: csv(200_000), givenName: "big.csv", name: "big.csv", mediaType: "text/csv" },
    ]);
    for (let i = 0; i < 3; i++) {
      expect(await files.describe("ada", kept!)).toEqual({
        sessionId: kept!.sessionId,
        fileId: kept!.fileId,
        name: "big.csv",
        mediaType: "text/csv",
        size: kept!.size,
        summary: "header row: n; 200000 rows below it",
      });
    }
    expect(sent).toEqual(["POST upload", "HEAD download", "HEAD download", "HEAD download"]);
  });

  it("of a table with no rows are read without its bytes too", async () => {
    const { files, sent } = countedFiles();
    const blank = new File(["\n".repeat(1_000_000)], "blank.csv", { type: "text/csv" });
    const [kept] = await files.upload("ada", [
      { file: blank, givenName: "blank.csv", name: "blank.csv", mediaType: "text/csv" },
    ]);
    expect(await files.describe("ada", kept!)).not.toHaveProperty("summary");
    expect(sent).toEqual(["POST upload", "HEAD download"]);
  });

  it("are another student's no more than the file is", async () => {
    const { files } = countedFiles();
    const [kept] = await files.upload("ada", [
      { file: csv(3), givenName: "big.csv", name: "big.csv", mediaType: "text/csv" },
    ]);
    expect(await files.describe("bo", kept!)).toBeNull();
  });

  it("from a sandbox that makes no summary, read the file once and sum it up once", async () => {
    // A codeapi without summaries: its answers lose the header.
    const { files, sent } = countedFiles(async (input, init) => {
      const answer = await fetch(input, init);
      const headers = new Headers(answer.headers);
      headers.delete("x-file-summary");
      return new Response(init?.method === "HEAD" ? null : await answer.arrayBuffer(), {
        status: answer.status,
        headers,
      });
    });
    const [kept] = await files.upload("ada", [
      { file: csv(5), givenName: "big.csv", name: "big.csv", mediaType: "text/csv" },
    ]);
    for (let i = 0; i < 3; i++)
      expect((await files.describe("ada", kept!))?.summary).toBe("header row: n; 5 rows below it");
    expect(sent).toEqual(["POST upload", "HEAD download", "GET download", "HEAD download", "HEAD download"]);
  });
});
