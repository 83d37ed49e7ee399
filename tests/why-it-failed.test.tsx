import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { ExecuteCodeCard } from "../src";
import { germanLabels } from "../src/locales/de";
import { runResultParts } from "../src/ui/run-result-parts";
import { libraryName, libraryRuns } from "../src/view/traceback";
import { slotSelector } from "../src/view/slots";
import { failures, type RanAndFailed } from "../stories/failure-fixtures";
import { call, completed, tracebackCode, tracebackFailure, tracebackStderr } from "../stories/fixtures";

const failedCard = ({ code, stdout, stderr, failure }: RanAndFailed, extra: Record<string, unknown> = {}) =>
  call(code, { result: completed({ stdout, stderr, exitCode: 1, failure }), ...extra });

// As a page shows the cards once the output's own code has loaded.
beforeAll(async () => {
  await runResultParts.load();
});

describe("why a run failed, on the card", () => {
  it("says the error in plain words under the exception, and the values where the line is", () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.index)} />);
    const explanation = container.querySelector<HTMLElement>(slotSelector("explanation"))!;
    expect(explanation).toHaveTextContent("marks has 3 items, so its indexes go from 0 to 2 (or -1 to -3); i is 3.");
    // Code in the words is code: the names as the program wrote them.
    expect([...explanation.querySelectorAll("p code")].map((each) => each.textContent)).toEqual(["marks", "i"]);
    const values = screen.getByRole("group", { name: "At line 3:" });
    expect([...values.querySelectorAll("code")].map((each) => each.textContent)).toEqual([
      "marks = [3, 5, 8]",
      "i = 3",
    ]);
    // The header's exception comes first, then the words, then the code.
    const header = container.querySelector(slotSelector("header"))!;
    const source = container.querySelector(slotSelector("source"))!;
    expect(header.compareDocumentPosition(explanation) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(explanation.compareDocumentPosition(source) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("marks what the carets point at, by characters, and puts the values beside that line only", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call(tracebackCode, {
          result: completed({ stdout: "", stderr: tracebackStderr, exitCode: 1, failure: tracebackFailure }),
        })}
      />,
    );
    const line = container.querySelector<HTMLElement>('[data-line="2"]')!;
    expect(line).toHaveAttribute("data-error");
    expect([...line.querySelectorAll(slotSelector("error-span"))].map((each) => each.textContent).join("")).toBe(
      "sum(values) / len(values)",
    );
    expect(line.querySelector(".ecu-line-values")).toHaveAttribute("data-values", "values = []");
    // Generated content: the program's own text is unchanged.
    expect(line.textContent).toBe("    return sum(values) / len(values)");
    expect(container.querySelectorAll(".ecu-line-values")).toHaveLength(1);
  });

  it("counts columns in characters: a name after an accented string is marked, not what is beside it", () => {
    const code = "label = 'café'\nprint(label, totl)";
    const failure = { type: "NameError", message: "name 'totl' is not defined", line: 2, column: 13, endColumn: 17 };
    const { container } = render(
      <ExecuteCodeCard
        {...call(code, {
          result: completed({ stderr: 'File "<program>", line 2, in <module>\nNameError\n', exitCode: 1, failure }),
        })}
      />,
    );
    expect(container.querySelector(slotSelector("error-span"))).toHaveTextContent(/^totl$/);
  });

  it("folds a library's frames behind one line that names it, and opens them", async () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.library)} />);
    const stderr = container.querySelector<HTMLElement>(slotSelector("stderr"))!;
    const fold = within(stderr).getByRole("button", { name: "3 steps inside json" });
    expect(fold).toHaveAttribute("aria-expanded", "false");
    const folded = stderr.querySelector("[data-folded]")!;
    expect(folded).not.toBeVisible();
    // The student's own frames stay links to their lines.
    expect(within(stderr).getByRole("button", { name: "line 6" })).toBeVisible();
    await userEvent.click(fold);
    expect(fold).toHaveAttribute("aria-expanded", "true");
    expect(folded).toBeVisible();
    expect(folded.textContent).toContain("json/decoder.py");
  });

  it("counts as more to show only the lines a library's fold does not already hide", async () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.noInternet)} />);
    const stderr = container.querySelector<HTMLElement>(slotSelector("stderr"))!;
    await within(stderr).findAllByRole("button", { name: /inside urllib$/ });
    const text = failures.noInternet.stderr;
    const folded = [...stderr.querySelectorAll("[data-folded]")].reduce(
      (lines, each) => lines + (each.textContent ?? "").split("\n").length - 1,
      0,
    );
    // Each fold leaves one line (its name) for the lines it hides.
    const shown = text.split("\n").length - 1 - folded + stderr.querySelectorAll("[data-fold]").length;
    const more = within(stderr).queryByRole("button", { name: /^Show \d+ more lines?$/ });
    if (shown > 13) expect(more).toHaveTextContent(`Show ${shown - 12} more lines`);
    else expect(more).toBeNull();
    expect(folded).toBeGreaterThan(12);
  });

  it("folds a compiled package's frames too, and names a table's columns as its keys", () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.tableKey)} />);
    const stderr = container.querySelector<HTMLElement>(slotSelector("stderr"))!;
    const folds = within(stderr).getAllByRole("button", { name: /inside pandas$/ });
    // Every frame left unfolded is the program's own.
    const shown = [...stderr.querySelectorAll("[data-folded]")].reduce(
      (text, folded) => text.replace(folded.textContent ?? "", ""),
      stderr.querySelector("pre")!.textContent ?? "",
    );
    expect(shown.match(/File "[^"]+"/g)?.every((file) => file === 'File "<program>"')).toBe(true);
    expect(folds.length).toBeGreaterThan(0);
    expect(container.querySelector(slotSelector("explanation"))).toHaveTextContent(
      "grades has no key 'grade'. Its keys: 'name', 'mark'.",
    );
  });

  it("ends a list the facts cut short with its ellipsis, not a full stop after it", () => {
    const { failure } = failures.tableKey;
    const cut = {
      ...failure,
      explanation: { ...failure.explanation, count: 9, names: ["'name'", "'millimetres_of_rain_per_mont…"] },
    };
    const { container } = render(<ExecuteCodeCard {...failedCard({ ...failures.tableKey, failure: cut })} />);
    expect(container.querySelector(slotSelector("explanation"))?.firstChild).toHaveTextContent(
      /^grades has no key 'grade'\. Its keys: 'name', 'millimetres_of_rain_per_mont…, …$/,
    );
    // A whole list whose last name was cut: the name's own ellipsis ends the sentence.
    const whole = { ...cut, explanation: { ...cut.explanation, count: 2 } };
    const { container: second } = render(<ExecuteCodeCard {...failedCard({ ...failures.tableKey, failure: whole })} />);
    expect(second.querySelector(slotSelector("explanation"))?.firstChild).toHaveTextContent(
      /^grades has no key 'grade'\. Its keys: 'name', 'millimetres_of_rain_per_mont…$/,
    );
  });

  it("folds nothing of a syntax error, and marks where Python points", () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.syntax)} />);
    expect(container.querySelector(slotSelector("library-frames"))).toBeNull();
    expect(container.querySelector(slotSelector("error-span"))).toHaveTextContent(/^\[$/);
  });

  it("speaks German with germanLabels", () => {
    const { container } = render(<ExecuteCodeCard {...failedCard(failures.zeroDivision, { labels: germanLabels })} />);
    expect(container.querySelector(slotSelector("explanation"))).toHaveTextContent(
      "Das Programm hat durch len(values) geteilt, und das ist 0.",
    );
    expect(screen.getByRole("group", { name: "In Zeile 2, in mean():" })).toBeInTheDocument();
  });

  it("shows a value's characters that would reorder or hide text as markers", () => {
    const failure = {
      ...tracebackFailure,
      values: [{ name: "label", value: "'abc\u202Efdp.exe'", type: "str", length: 12 }],
    };
    render(
      <ExecuteCodeCard
        {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1, failure }) })}
      />,
    );
    const value = within(screen.getByRole("group", { name: "At line 2, in mean():" })).getByText(/^label = /);
    expect(value.querySelector(".ecu-invisible")).toHaveAttribute("data-code-point", "U+202E");
  });

  it("loses no run for facts in another shape: the card shows the run, without words or values", async () => {
    const failure = { type: "ZeroDivisionError", values: "values = []", line: "2" };
    const { container } = render(
      <ExecuteCodeCard
        {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1, failure }) })}
      />,
    );
    await waitFor(() => expect(container.querySelector('[data-phase="failed"]')).not.toBeNull());
    expect(container.querySelector(slotSelector("stderr"))).toHaveTextContent("ZeroDivisionError: division by zero");
    expect(container.querySelector(slotSelector("explanation"))).toBeNull();
    // The line the traceback ends in is marked whole, as for a result without facts.
    expect(container.querySelector('[data-line="2"]')).toHaveAttribute("data-error");
    expect(container.querySelector(slotSelector("error-span"))).toBeNull();
  });
});

describe("a traceback's library frames", () => {
  it("are the runs of frames outside the program, each with the lines that go with them", () => {
    const runs = libraryRuns(failures.library.stderr);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.files.map(libraryName)).toEqual(["json", "json", "json"]);
    const lines = failures.library.stderr.split("\n");
    expect(lines[runs[0]!.start]).toMatch(/^ {2}File ".*json\/__init__\.py"/);
    expect(lines[runs[0]!.end]).toMatch(/^json\.decoder\.JSONDecodeError/);
  });

  it("are none for a traceback of the program's own frames", () => {
    expect(libraryRuns(failures.recursion.stderr)).toEqual([]);
  });

  it("name an installed package by its folder", () => {
    expect(libraryName("/usr/lib/python3/dist-packages/pandas/io/parsers/readers.py")).toBe("pandas");
    expect(libraryName("/usr/lib/python3.11/urllib/request.py")).toBe("urllib");
  });
});

describe("what a program cannot make the card say", () => {
  it("names the characters of a value that would reorder or break the line beside the code", () => {
    const failure = {
      ...tracebackFailure,
      values: [{ name: "grade", value: "<Grade\u202eFA\nprint('all good') object>", type: "Grade" }],
    };
    const { container } = render(
      <ExecuteCodeCard
        {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1, failure }) })}
      />,
    );
    expect(container.querySelector(".ecu-line-values")).toHaveAttribute(
      "data-values",
      "grade = <Grade⟨U+202E⟩FA⟨U+000A⟩print('all good') object>",
    );
  });
});
