import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ExecuteCodeMessageText } from "../src/assistant-ui";
import { messageSegments } from "../src/view/message-segments";

const PASTED =
  "Why does this fail?\n```python\ndef mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))\n```\nThanks!";

describe("a student's message as they typed it", () => {
  it("keeps a pasted program's indentation and shows it as code, without its fences", () => {
    const { container } = render(<ExecuteCodeMessageText text={PASTED} />);
    const code = container.querySelector("pre.ecu-message-code")!;
    expect(code.textContent).toBe("def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))");
    expect(code).toHaveAttribute("data-language", "python");
    expect(container.textContent).not.toContain("```");
    const prose = [...container.querySelectorAll("p.ecu-message-prose")].map((p) => p.textContent);
    expect(prose).toEqual(["Why does this fail?\n", "Thanks!"]);
  });

  it("keeps the spaces of prose too, and marks what a terminal would hide in the code", () => {
    const { container } = render(<ExecuteCodeMessageText text={"  two spaces\n```\nx = 1\u202e\n```"} />);
    expect(container.querySelector("p")!.textContent).toBe("  two spaces\n");
    // The character stays (what is copied is what was sent), marked where it is.
    const marker = container.querySelector("pre")!.querySelector("[role='img']")!;
    expect(marker).toHaveAttribute("aria-label", "U+202E right-to-left override");
  });
});

describe("messageSegments", () => {
  it("leaves a fence that is not closed, as while the message streams, as text", () => {
    expect(messageSegments("Run this:\n```python\nprint(1)")).toEqual([
      { kind: "text", text: "Run this:\n```python\nprint(1)" },
    ]);
  });

  it("cuts several blocks, each body exactly as written", () => {
    expect(messageSegments("```\na\n```\n```py\n\tb  \n\n```")).toEqual([
      { kind: "code", language: "", code: "a" },
      { kind: "code", language: "py", code: "\tb  \n" },
    ]);
  });

  it("opens and closes a block only at the start of a line, as Markdown does", () => {
    const text = 'Why does ```x``` fail?\n```python\ns = "```"\nprint(s)\n```\n';
    expect(messageSegments(text)).toEqual([
      { kind: "text", text: "Why does ```x``` fail?\n" },
      { kind: "code", language: "python", code: 's = "```"\nprint(s)' },
    ]);
  });

  it("closes a longer fence only with as many backticks", () => {
    expect(messageSegments("````md\n```\ninner\n```\n````")).toEqual([
      { kind: "code", language: "md", code: "```\ninner\n```" },
    ]);
  });

  it("reads a long run of backticks to its end", () => {
    const text = "`".repeat(100_000);
    expect(messageSegments(text)).toEqual([{ kind: "text", text }]);
    const inline = "a ``` b ".repeat(20_000);
    expect(messageSegments(inline)).toEqual([{ kind: "text", text: inline }]);
  });
});
