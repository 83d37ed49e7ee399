import { describe, expect, it } from "vitest";
import { CappedText, truncateText } from "../src/contract/truncate";

// Every stream's cap in the kit (the tool, the browser executor, the sandbox's engines) keeps text this way.
describe("output kept within its cap", () => {
  it("keeps the pieces up to the cap and counts the rest", () => {
    const kept = new CappedText(10);
    expect(kept.add("hello ")).toBe("hello ");
    expect(kept.add("world!")).toBe("worl");
    expect(kept.add("more")).toBe("");
    expect({ text: kept.text, cut: kept.cut }).toEqual({ text: "hello worl", cut: 6 });
  });

  it("never splits an emoji (a surrogate pair) at the cap: it is cut whole and counted", () => {
    const kept = new CappedText(5);
    kept.add("abcd");
    kept.add("😀!");
    expect(kept.text).toBe("abcd");
    expect(kept.cut).toBe(3);
    expect(truncateText("ab😀", 3)).toEqual({ text: "ab", cut: 2 });
  });
});
