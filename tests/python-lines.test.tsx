import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { deriveExecuteCodeView, ExecuteCodeCard, type ExecuteCodeCardProps } from "../src";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { type ExecuteCodeSlot, type InternalSlot, slotSelector } from "../src/view/slots";
import { programTitle } from "../src/view/program-title";
import { pythonLines, withPythonLineBreaks } from "../src/view/python-lines";
import { call, completed, running } from "../stories/fixtures";

// The card shows the program Python runs: Python's tokenizer ends a line at
// "\r\n", "\n" and a lone "\r", and a form feed at the start of a line resets
// its count of the line's indentation.

/** One line to a terminal or a browser, two to Python: the comment ends at the carriage return. */
const hiddenStatement = 'total = 42  # comment\rimport os; print("HIDDEN")';
/** The last line looks indented under the `if`; the form feed puts it at the top level. */
const formFeedProgram = 'import os\nif os.getenv("MODE") == "yes":\n    print("asked")\n    \fprint("always")\n';

const slot = (container: HTMLElement, name: ExecuteCodeSlot | InternalSlot | "") =>
  container.querySelector<HTMLElement>(name ? slotSelector(name) : EXECUTE_CODE_CARD)!;
const codeLines = (container: HTMLElement) =>
  [...slot(container, "source").querySelectorAll<HTMLElement>(".ecu-code-line")].map((line) => line.textContent);
const highlighted = (container: HTMLElement) =>
  waitFor(() => expect(slot(container, "source").querySelector(".ecu-token")).not.toBeNull(), { timeout: 5000 });

const awaitingApproval = (code: string): ExecuteCodeCardProps => ({
  ...call(code, { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } }),
  onApprove: vi.fn(),
  onDeny: vi.fn(),
});

describe("Python's lines", () => {
  it("splits where Python's tokenizer does", () => {
    expect(pythonLines("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
    expect(pythonLines("a\r\rb")).toEqual(["a", "", "b"]);
    expect(pythonLines("a\n")).toEqual(["a", ""]);
    expect(pythonLines("a\fb\u2028c")).toEqual(["a\fb\u2028c"]);
  });

  it("writes each line break as \\n, keeping the prefix of a program that grows at its end", () => {
    expect(withPythonLineBreaks("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
    const code = "x = 1\r\ny = 2\rz";
    let before = "";
    for (let end = 1; end <= code.length; end++) {
      const now = withPythonLineBreaks(code.slice(0, end));
      expect(now.startsWith(before)).toBe(true);
      before = now;
    }
  });

  it("numbers a traceback's lines as Python does, and titles the card from Python's first line", () => {
    const view = deriveExecuteCodeView(
      call("x = 1  # note\rimport os; os.missing()", {
        result: completed({
          stderr: `Traceback (most recent call last):\n  File "<program>", line 2, in <module>\nAttributeError: module 'os' has no attribute 'missing'\n`,
          exitCode: 1,
        }),
      }),
    );
    expect(view.errorLine).toBe(2);
    expect(programTitle("# Primes\rimport os")).toBe("Primes");
  });
});

describe("ExecuteCodeCard: the program Python runs", () => {
  it("shows the statement after a lone carriage return on a line of its own, outside the comment", async () => {
    const user = userEvent.setup();
    const { container } = render(<ExecuteCodeCard {...call(hiddenStatement, { status: running })} />);
    expect(codeLines(container)).toEqual(["total = 42  # comment", 'import os; print("HIDDEN")']);
    expect(slot(container, "gutter").textContent).toBe("1\n2");
    await highlighted(container);
    await waitFor(() => expect(slot(container, "source").querySelector('[data-line="2"] .ecu-token')).not.toBeNull());
    const line = (n: number) => slot(container, "source").querySelector<HTMLElement>(`[data-line="${n}"]`)!;
    const commentToken = [...line(1).querySelectorAll<HTMLElement>(".ecu-token")].find((token) =>
      token.textContent?.includes("comment"),
    )!;
    expect(commentToken.textContent).toBe("# comment");
    const importToken = [...line(2).querySelectorAll<HTMLElement>(".ecu-token")].find(
      (token) => token.textContent === "import",
    )!;
    expect(importToken).toBeDefined();
    expect(importToken.getAttribute("style")).not.toBe(commentToken.getAttribute("style"));
    // The copy button copies the program as it came, carriage return and all.
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await navigator.clipboard.readText()).toBe(hiddenStatement);
  });

  it("shows the approval card the lines Python runs, with a form feed marked", () => {
    const { container } = render(<ExecuteCodeCard {...awaitingApproval(`${hiddenStatement}\r\n${formFeedProgram}`)} />);
    expect(slot(container, "")).toHaveAttribute("data-phase", "awaiting-approval");
    expect(screen.getByRole("button", { name: "Run" })).toBeEnabled();
    expect(codeLines(container)).toEqual([
      "total = 42  # comment",
      'import os; print("HIDDEN")',
      "import os",
      'if os.getenv("MODE") == "yes":',
      '    print("asked")',
      '    \fprint("always")',
    ]);
    // The final line break ends the last line; it is no line of its own.
    expect(slot(container, "gutter").textContent).toBe("1\n2\n3\n4\n5\n6");
    const source = slot(container, "source");
    const marker = within(source).getByRole("img", { name: "U+000C form feed" });
    expect(marker).toHaveClass("ecu-invisible");
    expect(marker).toHaveAttribute("data-marker", "FF");
    expect(marker).toHaveAttribute("title", "U+000C form feed");
    // The character itself stays, for copying; the marker is drawn by the stylesheet.
    expect(marker.textContent).toBe("\f");
    expect(source.querySelector('[data-line="6"]')).toContainElement(marker);
  });

  it("marks control, bidi and zero-width characters in the code, and only the format characters in the output", () => {
    const code = 'access = "user"  # \u202E \u2066if admin\u2069 \u2067\nprint(access\u200B)\x1b\x7f\nname\u200D = 1\n';
    const { container } = render(
      <ExecuteCodeCard {...call(code, { result: completed({ stdout: "a\u200Db\u202Ec\n" }) })} />,
    );
    const marked = (element: HTMLElement) =>
      [...element.querySelectorAll<HTMLElement>(".ecu-invisible")].map((marker) => marker.dataset.codePoint);
    expect(marked(slot(container, "source"))).toEqual([
      "U+202E",
      "U+2066",
      "U+2069",
      "U+2067",
      "U+200B",
      "U+001B",
      "U+007F",
      "U+200D",
    ]);
    expect(
      within(slot(container, "source")).getByRole("img", { name: "U+202E right-to-left override" }),
    ).toHaveAttribute("data-marker", "\u27E8U+202E\u27E9");
    expect(within(slot(container, "source")).getByRole("img", { name: "U+007F delete" })).toHaveAttribute(
      "data-marker",
      "DEL",
    );
    // Output keeps the joiner that shapes emoji and scripts unmarked.
    expect(marked(slot(container, "stdout"))).toEqual(["U+202E"]);
  });

  it("links a traceback frame to the line Python numbered", async () => {
    const user = userEvent.setup();
    const stderr = `Traceback (most recent call last):\n  File "<program>", line 2, in <module>\nAttributeError: module 'os' has no attribute 'missing'\n`;
    const { container } = render(
      <ExecuteCodeCard
        {...call("x = 1  # note\rimport os; os.missing()", { result: completed({ stderr, exitCode: 1 }) })}
      />,
    );
    const errorLine = container.querySelector<HTMLElement>("[data-error]")!;
    expect(errorLine).toHaveAttribute("data-line", "2");
    expect(errorLine).toHaveTextContent("import os; os.missing()");
    await user.click(screen.getByRole("button", { name: "line 2" }));
    const focused = container.querySelector<HTMLElement>("[data-focused]")!;
    expect(focused).toHaveAttribute("data-line", "2");
    expect(focused.textContent).toBe("import os; os.missing()");
  });

  it("splits the code at carriage returns while it streams", async () => {
    const writing = (code: string) => (
      <ExecuteCodeCard status={running} args={{}} argsText={JSON.stringify({ code }).slice(0, -2)} />
    );
    const { container, rerender } = render(writing("x = 1\r"));
    expect(slot(container, "")).toHaveAttribute("data-phase", "writing");
    expect(codeLines(container)).toEqual(["x = 1", ""]);
    // The "\n" after it makes no second line break.
    rerender(writing("x = 1\r\n"));
    await waitFor(() => expect(slot(container, "gutter").textContent).toBe("1\n2"));
    expect(codeLines(container)).toEqual(["x = 1", ""]);
    rerender(writing("x = 1\r\ny = 2  # note\rimport os"));
    await waitFor(() => expect(codeLines(container)).toEqual(["x = 1", "y = 2  # note", "import os"]));
  });

  it("folds a long program by Python's count of its lines", () => {
    const code = Array.from({ length: 20 }, (_, i) => `x${i} = ${i}`).join("\r");
    const { container } = render(<ExecuteCodeCard {...call(code, { status: running })} />);
    expect(slot(container, "gutter").textContent?.split("\n")).toHaveLength(20);
    expect(within(slot(container, "source")).getByRole("button", { name: "Show 4 more lines" })).toBeVisible();
  });
});
