import { describe, expect, it } from "vitest";
import { createLineSplitter } from "../../src/harness/sandbox/line-splitter";

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
});
