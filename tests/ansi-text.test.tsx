import { render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { AnsiText } from "../src";
import { ansiParser } from "../src/ui/ansi-parser";

// Output is shown as a terminal would show it, and no escape sequence,
// complete or not, takes text with it past its own line.
describe("AnsiText", () => {
  beforeAll(async () => {
    await ansiParser.load();
  });

  const shown = (text: string) => render(<AnsiText text={text} />).container.textContent;

  it("keeps the lines after a bare ESC [ once the colour parser has loaded", () => {
    const stdout = "All 3 tests passed\x1b[.\n- test_grade FAILED: expected 10, got 0\n- test_late FAILED\nm\n";
    expect(shown(stdout)).toBe(
      "All 3 tests passed[.\n- test_grade FAILED: expected 10, got 0\n- test_late FAILED\nm\n",
    );
  });

  it("keeps the lines after an OSC sequence that never ends", () => {
    expect(shown("title\x1b]0;unfinished\nthe result: 42\n\x1b[31mred\x1b[0m\n")).toBe(
      "title0;unfinished\nthe result: 42\nred\n",
    );
    // A complete one is a terminal's window title: not shown.
    expect(shown("\x1b]0;my title\x07shown\n")).toBe("shown\n");
  });

  it("shows a line of very many carriage returns as its last state", () => {
    expect(shown(`${"A".repeat(300_000)}${"\rb".repeat(150_000)}\nnext\n`)).toBe(`b${"A".repeat(299_999)}\nnext\n`);
    expect(shown("progress 10%\rprogress 100%\rdone\n")).toBe("doneress 100%\n");
  });
});
