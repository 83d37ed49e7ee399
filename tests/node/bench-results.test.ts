import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RESULTS_END, RESULTS_START, withResults } from "../../bench/results-section";

describe("the bench's results in BENCHMARKS.md", () => {
  it("replace only what is between the markers, and the prose around them stays", () => {
    const document = `# B\n\nprose\n\n${RESULTS_START}\n\nold table\n\n${RESULTS_END}\n\nmore prose\n`;
    const written = withResults(document, "Commit abc1234. | new |\n");
    expect(written).toBe(
      `# B\n\nprose\n\n${RESULTS_START}\n\nCommit abc1234. | new |\n\n${RESULTS_END}\n\nmore prose\n`,
    );
    // Written again, the same: nothing piles up.
    expect(withResults(written, "Commit abc1234. | new |\n")).toBe(written);
  });

  it("refuse a document without its markers rather than append to it", () => {
    expect(() => withResults("# B\n", "x")).toThrow(/bench:results/);
  });

  it("BENCHMARKS.md has the markers, once each", () => {
    const document = readFileSync("BENCHMARKS.md", "utf8");
    expect(document.split(RESULTS_START)).toHaveLength(2);
    expect(document.split(RESULTS_END)).toHaveLength(2);
    expect(document.split("<!-- bench:class-day -->")).toHaveLength(2);
    expect(document.split("<!-- /bench:class-day -->")).toHaveLength(2);
  });

  it("a scenario's own section is written apart from the main results", () => {
    const document = `${RESULTS_START}\nmain\n${RESULTS_END}\n<!-- bench:class-day -->\nold\n<!-- /bench:class-day -->\n`;
    expect(withResults(document, "new", "class-day")).toBe(
      `${RESULTS_START}\nmain\n${RESULTS_END}\n<!-- bench:class-day -->\n\nnew\n\n<!-- /bench:class-day -->\n`,
    );
  });
});
