import { describe, expect, it } from "vitest";
import { createLineSplitter } from "../../src/server/line-splitter";
import { readLines } from "../../src/server/codeapi/sandbox-stream";

describe("the sandbox's line splitter", () => {
  it("gives each whole line once, however the chunks cut it", () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line));
    for (const chunk of ['{"a"', ":1}\n{", '"b":2}\n\n{"c"', ":3}\n", "partial"]) splitter.push(chunk);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', "", '{"c":3}']);
    splitter.reset();
    splitter.push("next\n");
    expect(lines.at(-1)).toBe("next");
  });

  it("joins a 10 MB line that comes in 64 KB pieces into one line", () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line));
    const piece = "x".repeat(64 * 1024);
    for (let sent = 0; sent < 160; sent++) splitter.push(piece);
    splitter.push("\n");
    expect(lines.length).toBe(1);
    expect(lines[0]!.length).toBe(160 * 64 * 1024);
  });

  it("reads a sandbox's streamed answer the same way: a 10 MB result line whole, then a last line without its break", async () => {
    const piece = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent < 160) controller.enqueue(piece);
        else if (sent === 160) controller.enqueue(new TextEncoder().encode('\n\n{"type":"result"}'));
        else controller.close();
        sent++;
      },
    });
    const lines: string[] = [];
    for await (const line of readLines(body)) lines.push(line);
    expect(lines.map((line) => line.length)).toEqual([160 * 64 * 1024, '{"type":"result"}'.length]);
  });
});
