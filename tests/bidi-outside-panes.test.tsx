import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ExecuteCodeCard } from "../src";
import { runResultParts } from "../src/ui/run-result-parts";
import { call, completed, squaresCsv, squaresFigure } from "../stories/fixtures";

const OVERRIDE = "\u202E";

/** The characters the card marks as hidden (a bidi override shows as a marker, in place). */
const marked = (root: Element) =>
  [...root.querySelectorAll(".ecu-invisible")].map((element) => element.getAttribute("data-code-point"));

// A right-to-left override makes "exe.fdp" read as "pdf.exe". Outside the
// output panes too, a name or message that carries one shows it marked.
describe("a bidi override outside the output panes", () => {
  it("is marked in a file's download link and in the names of files gone before the run", async () => {
    await runResultParts.load();
    const { container } = render(
      <ExecuteCodeCard
        {...call("x", {
          result: completed({
            stdout: "ok\n",
            files: [
              { ...squaresFigure, name: `invoice_${OVERRIDE}gnp.png` },
              { ...squaresCsv, name: `report_${OVERRIDE}vsc.exe` },
            ],
            filesGone: [`grades${OVERRIDE}.csv`],
          }),
        })}
      />,
    );
    const links = [...container.querySelectorAll("a[data-slot=execute-code-file]")];
    expect(links).toHaveLength(2);
    for (const link of links) expect(marked(link)).toEqual(["U+202E"]);
    expect(marked(container.querySelector("[data-slot=execute-code-files-gone]")!)).toEqual(["U+202E"]);
  });

  it("is marked in a failed run's exception, in the header", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("raise ValueError()", {
          result: completed({
            stderr: `Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nValueError: ${OVERRIDE}dessap stset lla\n`,
            exitCode: 1,
          }),
        })}
      />,
    );
    expect(marked(container.querySelector("[data-slot=execute-code-error]")!)).toEqual(["U+202E"]);
  });

  it("is marked in an error result's message", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("x", { result: { status: "error", code: "x", message: `ok ${OVERRIDE}dessap lla` } })}
      />,
    );
    expect(marked(container.querySelector("[data-slot=execute-code-message]")!)).toEqual(["U+202E"]);
  });
});
