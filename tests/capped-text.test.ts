import { describe, expect, it } from "vitest";
import { CappedText, keepHeadAndTail, keepHeadAndTailAfter, markCut, truncationOf } from "../src/contract/truncate";

const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `line ${from + k}\n`).join("");

// Every stream's cap in the kit (the tool, the browser executor, the sandbox's engines) keeps text this way.
describe("long output keeps its start and its end", () => {
  it("keeps the first and the last characters and says where the middle was cut", () => {
    const text = lines(0, 50_000);
    const kept = keepHeadAndTail(text, 8000);
    expect(kept.text.length).toBe(8000);
    expect(kept.text.startsWith("line 0\n")).toBe(true);
    // The last line printed, where a loop usually says what went wrong, is kept.
    expect(kept.text.endsWith("line 49999\n")).toBe(true);
    expect(kept.at).toBe(4000);
    expect(kept.cut).toBe(text.length - 8000);
    expect(kept.cutLines).toBe(text.slice(4000, text.length - 4000).split("\n").length - 1);
  });

  it("takes pieces as they arrive the same way, at any size of piece", () => {
    const text = lines(0, 20_000);
    for (const size of [1, 7, 4096, 100_000]) {
      const capped = new CappedText(1000);
      for (let i = 0; i < text.length; i += size) capped.add(text.slice(i, i + size));
      expect(capped.kept()).toEqual(keepHeadAndTail(text, 1000));
    }
  });

  it("counts what a flood's reader never saw, and keeps the end it saw after that as one stretch", () => {
    const capped = new CappedText(20);
    capped.add("0123456789abcdefghij-tail");
    capped.skip({ chars: 1000, lines: 99 });
    capped.add("the end\n");
    // The start stays; the end kept before the gap goes, so no seam hides inside the kept end.
    expect(capped.kept()).toEqual({ text: "0123456789the end\n", cut: 15 + 1000, at: 10, cutLines: 99 });
    // A start not yet full ends at the gap too.
    const early = new CappedText(100);
    early.add("abc");
    early.skip({ chars: 5, lines: 1 });
    early.add("xyz");
    expect(early.kept()).toEqual({ text: "abcxyz", cut: 5, at: 3, cutLines: 1 });
  });

  it("takes a stream's true end once it is known, whatever was kept of the end before it", () => {
    const text = lines(0, 5_000);
    const capped = new CappedText(1000);
    capped.add(text.slice(0, 2000));
    capped.skip({ chars: 100, lines: 3 });
    capped.add("approximate end\n");
    capped.endWith(text.slice(-500), { chars: text.length, lines: 5_000 });
    expect(capped.kept()).toEqual(keepHeadAndTail(text, 1000));
    // An end that does not add up with what was written is not taken.
    capped.endWith("x".repeat(400), { chars: 10, lines: 0 });
    expect(capped.kept()).toEqual(keepHeadAndTail(text, 1000));
  });

  it("keeps what fits whole, with nothing cut", () => {
    const capped = new CappedText(100);
    capped.add("hello ");
    capped.add("world\n");
    expect(capped.kept()).toEqual({ text: "hello world\n", cut: 0, at: 12, cutLines: 0 });
    expect(truncationOf(capped.kept(), capped.kept())).toEqual({ stdout: 0, stderr: 0 });
  });

  it("never splits an emoji (a surrogate pair) at either edge of the cut", () => {
    const kept = keepHeadAndTail("ab😀cdefgh😀ij", 6);
    // Three units each side would split both emoji: each is left out whole, and counted.
    expect(kept).toMatchObject({ text: "abij", at: 2, cut: 10 });
    const capped = new CappedText(5);
    capped.add("abcd");
    capped.add("😀!");
    expect([...capped.text].every((char) => char.length === 2 || char.charCodeAt(0) < 0xd800)).toBe(true);
  });

  it("tells two stages' cuts (the sandbox's, then the server's) as one", () => {
    const text = lines(0, 10_000);
    const sandbox = keepHeadAndTail(text, 20_000);
    const server = keepHeadAndTailAfter(sandbox.text, 2000, sandbox);
    expect(server).toEqual(keepHeadAndTail(text, 2000));
    // A sandbox cut the server keeps whole stays where the sandbox put it.
    expect(keepHeadAndTailAfter(sandbox.text, 100_000, sandbox)).toEqual(sandbox);
  });

  it("says the cut in words where it was, for the model", () => {
    const kept = keepHeadAndTail(lines(0, 1000), 40);
    expect(markCut(kept.text, kept.cut, kept.at, kept.cutLines)).toBe(
      `${kept.text.slice(0, 20)}\n[${kept.cut} characters (${kept.cutLines} line breaks) were left out here, between the start and the end]\n${kept.text.slice(20)}`,
    );
    expect(markCut("abc", 5)).toBe("abc\n[5 characters were left out from the end]\n");
  });
});
