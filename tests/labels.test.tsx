import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ExecuteCodeCard, englishLabels, type ExecuteCodeCardProps, type ExecuteCodeLabels } from "../src";
import {
  call,
  completed,
  running,
  squaresCsv,
  squaresFigure,
  tracebackCode,
  tracebackStderr,
} from "../stories/fixtures";

/** A label set whose every string names its own key, so the page shows which labels it used. */
function markerLabels(): ExecuteCodeLabels {
  const labels: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(englishLabels)) {
    if (key === "numbers") labels[key] = value;
    else if (key === "phase" || key === "stoppedAtLimit") {
      labels[key] = Object.fromEntries(Object.keys(value as object).map((name) => [name, `«${key}.${name}»`]));
    } else if (typeof value === "function") labels[key] = () => `«${key}»`;
    else labels[key] = `«${key}»`;
  }
  return labels as unknown as ExecuteCodeLabels;
}

const labels = markerLabels();
const seen = new Set<string>();

/** Every marker on the page: in text, and in the names and hints that only assistive tech or a hover shows. */
function collect() {
  const texts = [document.body.textContent ?? ""];
  for (const element of document.body.querySelectorAll("*")) {
    for (const attribute of ["aria-label", "title", "placeholder"]) texts.push(element.getAttribute(attribute) ?? "");
  }
  for (const match of texts.join(" ").matchAll(/«([^»]+)»/g)) seen.add(match[1]!);
}

async function show(props: ExecuteCodeCardProps, interact?: () => Promise<void>) {
  render(<ExecuteCodeCard {...props} labels={labels} />);
  collect();
  if (interact) {
    await interact();
    collect();
  }
  cleanup();
}

const longOutput = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n");

describe("labels", () => {
  it("uses every label of the set somewhere, and no text of its own", async () => {
    const user = userEvent.setup();
    const longProgram = Array.from({ length: 200 }, (_, i) => `x${i} = ${i}`).join("\n");
    await show({ status: running, args: {}, argsText: JSON.stringify({ code: longProgram }).slice(0, -2) });
    await show(call("print(1)", { status: running }));
    await show({
      ...call("import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])", {
        status: running,
        result: { status: "running", stdout: "", stderr: "", truncated: { stdout: 0, stderr: 0 }, timeoutMs: 10_000 },
      }),
      onStop: () => undefined,
    });
    await show(
      {
        ...call("print(1)", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } }),
        onApprove: () => Promise.reject(new Error("offline")),
        onDeny: () => undefined,
      },
      async () => {
        await user.click(await screen.findByRole("button", { name: "«addReason»" }));
        await user.click(screen.getByRole("button", { name: "«run»" }));
        await screen.findByRole("alert");
      },
    );
    await show(
      {
        ...call("print(1)", {
          result: completed({ stdout: longOutput, truncated: { stdout: 120, stderr: 0 }, wallTimeMs: 31 }),
        }),
      },
      async () => {
        // Output too long to show whole: its one control shows all of it. The note on the lines it hides comes
        // with the pane's code, which a busy machine may load after the first render: read it before the click.
        const showAll = await screen.findByRole("button", { name: "«showAll»" });
        collect();
        await user.click(showAll);
        await user.click(screen.getAllByRole("button", { name: "«copy»" })[0]!);
        await screen.findByRole("button", { name: "«copied»" });
        collect();
        await user.click(screen.getByRole("button", { name: "«collapseCard»" }));
      },
    );
    await show(call("print(1)", { result: completed({ stdout: "line\n".repeat(20) }) }), async () => {
      await user.click(screen.getByRole("button", { name: /«showMore»/ }));
    });
    await show(call("print('x' * 100_000)", { result: completed({ stdout: "x".repeat(100_000) }) }));
    // Cut in the middle by the server: the seam says what was not kept, in lines where it knows them.
    const seam = (lines?: number) =>
      call("print(1)", {
        result: completed({
          stdout: "start\nend\n",
          truncated: { stdout: 500, stderr: 0, at: { stdout: 6 }, ...(lines ? { lines: { stdout: lines } } : {}) },
        }),
      });
    await show(seam(40));
    // A carriage return overwrote a line: the toggle that shows what it overwrote.
    await show(call("print(s)", { result: completed({ stdout: "abc\rHIDDEN xyz\n" }) }));
    await show(seam());
    await show(call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) }));
    // An exit without an exception (sys.exit(3)): the status says the code.
    await show(call("import sys; sys.exit(3)", { result: completed({ exitCode: 3 }) }));
    // A run given the student's files and the chat's earlier variables, which wrote a table longer than the card shows.
    const rows = `n,square\n${Array.from({ length: 40 }, (_, n) => `${n},${n * n}`).join("\n")}\n`;
    await show(
      {
        ...call("x", {
          result: completed({
            files: [squaresCsv],
            filesUsed: ["scores.csv"],
            filesGone: ["old.csv"],
            continued: true,
          }),
        }),
        fileUrl: () => `data:text/csv,${encodeURIComponent(rows)}`,
      },
      async () => {
        await screen.findByRole("region", { name: "«tablePreview»" });
      },
    );
    await show(call("x", { result: completed({ restarted: true }) }));
    await show(
      call("import os; os.kill(0, 9)", {
        result: {
          status: "completed",
          stdout: "",
          stderr: "",
          exitCode: null,
          signal: "SIGKILL",
          wallTimeMs: 5,
          truncated: { stdout: 0, stderr: 0 },
        },
      }),
    );
    // Stopped by the sandbox at a limit: the status names it.
    for (const kind of ["memory", "sandbox-full"])
      await show(
        call("x", {
          result: completed({
            exitCode: null,
            signal: "SIGKILL",
            failure: { type: "Stopped", message: "", explanation: { kind } },
          }),
        }),
      );
    await show(
      call("x", {
        result: {
          status: "completed",
          stdout: "",
          stderr: "",
          exitCode: null,
          signal: null,
          wallTimeMs: 5,
          truncated: { stdout: 0, stderr: 0 },
        },
      }),
    );
    await show(call("while 1: pass", { result: { timedOut: true, timeoutMs: 1000 } }));
    vi.useFakeTimers();
    try {
      render(
        <ExecuteCodeCard
          {...call("x", { result: { status: "busy", retryAfterMs: 2000, message: "" } })}
          labels={labels}
        />,
      );
      collect();
      act(() => vi.advanceTimersByTime(3000));
      collect();
      cleanup();
    } finally {
      vi.useRealTimers();
    }
    await show({
      ...call("x", { result: { status: "busy", retryAfterMs: null, message: "" } }),
      onRetry: () => undefined,
    });
    await show(call("x", { approval: { id: "a", approved: false, reason: "not now" } }));
    await show(call("x", { approval: { id: "a", approved: false, reason: "expired" } }));
    await show(call("x", { status: { type: "incomplete", reason: "cancelled" } }));
    await show(call("x", { status: { type: "complete" } }));
    // Before the model has written a line, the card is titled after the tool.
    await show(call("", { status: { type: "running" } }));
    // Python still loading in the browser.
    const notYet = { status: "running", stdout: "", stderr: "", truncated: { stdout: 0, stderr: 0 }, starting: true };
    await show(call("x", { status: { type: "running" }, result: notYet }));
    await show(call("x", { result: { status: "error", code: "x", message: "down" } }));
    await show(call("x", { result: { answer: 42 } }));
    await show(call("x", { status: { type: "requires-action", reason: "tool-calls" }, execution: "client" }));
    await show(call("x", { result: { error: "User cancelled tool call by sending a new message." }, isError: true }));
    await show(call("x", { result: completed({ files: [squaresFigure, squaresCsv] }) }), async () => {
      await user.click(screen.getByRole("button", { name: "«enlargeFigure»" }));
      await screen.findByRole("dialog");
      collect();
      await user.keyboard("{Escape}");
      act(() => {
        screen.getByRole("img").dispatchEvent(new Event("error"));
      });
    });

    const expected = Object.keys(englishLabels)
      .filter((key) => key !== "numbers" && key !== "phase" && key !== "stoppedAtLimit")
      .concat(Object.keys(englishLabels.phase).map((phase) => `phase.${phase}`))
      .concat(Object.keys(englishLabels.stoppedAtLimit).map((limit) => `stoppedAtLimit.${limit}`));
    expect([...expected].filter((key) => !seen.has(key))).toEqual([]);
  });

  afterAll(() => {
    seen.clear();
  });
});

describe("labels in German", () => {
  it("leaves no English on a failed run's card", async () => {
    const { germanLabels } = await import("../src/locales/de");
    render(
      <ExecuteCodeCard
        {...call(tracebackCode, {
          result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }),
        })}
        labels={germanLabels}
      />,
    );
    expect(screen.getByRole("status")).toHaveTextContent(/^Fehlgeschlagen\s*Exit-Code 1$/);
    expect(screen.getByRole("button", { name: "Code kopieren" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Programm und Ausgabe ausblenden" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "line 2" })).toHaveAttribute("title", "Zu Zeile 2 des Codes springen"),
    );
  });
});
