import type { Meta, StoryObj } from "@storybook/react-vite";
import { useEffect, useState, type CSSProperties } from "react";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { EXECUTE_CODE_PHASES, ExecuteCodeCard, type ExecuteCodeCardProps, type ExecuteCodePhase } from "../src";
import { germanLabels } from "../src/locales/de";
import {
  ansiOutput,
  bidiOutput,
  call,
  completed,
  htmlOutput,
  largeProgram,
  longOutput,
  plotCode,
  primesCode,
  primesOutput,
  running,
  squaresCsv,
  squaresFigure,
  tracebackCode,
  tracebackStderr,
  unicodeOutput,
  writingArgsText,
} from "./fixtures";
import squaresPng from "./assets/squares.png";

const meta = {
  title: "ExecuteCodeCard",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

const card = (root: HTMLElement) => {
  const element = root.querySelector<HTMLElement>('[data-slot="execute-code"]');
  if (!element) throw new Error("card not rendered");
  return element;
};
const slot = (root: HTMLElement, name: string) =>
  root.querySelector<HTMLElement>(`[data-slot="execute-code-${name}"]`);

/** The height a scrolling area shows, in lines of its own text. */
const visibleLines = (element: HTMLElement) =>
  element.clientHeight / Number.parseFloat(getComputedStyle(element).lineHeight);

/** Waits until shiki's tokens have replaced the plain text of the code block. */
const highlighted = (root: HTMLElement) =>
  waitFor(() => expect(slot(root, "source")?.querySelector(".ecu-token")).not.toBeNull(), { timeout: 5000 });

/** The card in a 320 px column, the narrowest phone. */
const atPhoneWidth = (args: ExecuteCodeCardProps) => (
  <div style={{ width: 320 }}>
    <ExecuteCodeCard {...args} />
  </div>
);

// --- Phases ---------------------------------------------------------------

export const Writing: Story = {
  args: { status: running, args: {}, argsText: writingArgsText },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "writing");
    await expect(slot(root, "source")).toHaveTextContent("return Fal");
    await expect(within(root).getByRole("status")).toHaveTextContent("Writing code");
    await expect(slot(root, "stdout")).toBeNull();
  },
};

function StreamingDemo({ code, steps, intervalMs }: { code: string; steps: number; intervalMs: number }) {
  const full = JSON.stringify({ code });
  const [sent, setSent] = useState(0);
  useEffect(() => {
    if (sent >= steps) return;
    const timer = setTimeout(() => setSent((n) => n + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [sent, steps, intervalMs]);
  const done = sent >= steps;
  // Runtimes hand over the arguments without their closing delimiters while they stream.
  const argsText = done ? full : full.slice(0, Math.ceil((full.length * sent) / steps)).replace(/"?\}?$/, "");
  return <ExecuteCodeCard status={running} args={done ? { code } : {}} argsText={argsText} />;
}

export const StreamingCode: Story = {
  args: { status: running },
  render: () => <StreamingDemo code={primesCode} steps={24} intervalMs={40} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "writing");
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "running"), { timeout: 5000 });
    await expect(slot(root, "source")?.querySelector("code")?.textContent?.replace(/\n$/, "")).toBe(primesCode);
    await highlighted(root);
    await expect(within(root).getByRole("status")).toHaveTextContent("Running");
  },
};

/** A long program streams in: the code follows its end, unless the reader scrolls up to read. */
export const StreamingLongCode: Story = {
  args: { status: running },
  render: () => <StreamingDemo code={largeProgram(16_000)} steps={160} intervalMs={30} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const body = () => slot(root, "source")!.querySelector("pre")!;
    const lineCount = () => body().querySelectorAll(".ecu-code-line").length;
    const atEnd = () => body().scrollTop + body().clientHeight >= body().scrollHeight - 4;
    await waitFor(() => expect(lineCount()).toBeGreaterThan(40), { timeout: 5000 });
    await waitFor(() => expect(atEnd()).toBe(true));
    // The reader scrolls up: the code stays where they put it while it grows.
    body().scrollTop = 0;
    body().dispatchEvent(new Event("scroll"));
    const before = lineCount();
    await waitFor(() => expect(lineCount()).toBeGreaterThan(before + 10), { timeout: 5000 });
    await expect(body().scrollTop).toBe(0);
    // Back at the end, it follows again.
    body().scrollTop = body().scrollHeight;
    body().dispatchEvent(new Event("scroll"));
    const later = lineCount();
    await waitFor(() => expect(lineCount()).toBeGreaterThan(later + 10), { timeout: 5000 });
    await waitFor(() => expect(atEnd()).toBe(true));
    // Complete: every line was rendered as it came, so the whole program is lines, not plain text waiting for a second pass.
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "running"), { timeout: 15_000 });
    const program = largeProgram(16_000).replace(/\n$/, "");
    await expect(lineCount()).toBe(program.split("\n").length);
    // Its end is in view, down to the last line.
    await waitFor(() => expect(atEnd()).toBe(true));
    // What a person selects and copies is the program, blank lines at the blocks' edges included.
    await expect(body().querySelector("code")!.innerText.replace(/\n$/, "")).toBe(program);
    const selection = getSelection()!;
    selection.selectAllChildren(body().querySelector("code")!);
    await expect(selection.toString().replace(/\n$/, "")).toBe(program);
    selection.removeAllRanges();
    // Every line beside its number: blocks of lines that end in a blank line keep that line.
    const [code, gutter] = [body().querySelector("code")!, slot(root, "gutter")!];
    await expect(Math.abs(code.getBoundingClientRect().height - gutter.getBoundingClientRect().height)).toBeLessThan(1);
    const last = body().querySelector(`[data-line="${lineCount()}"]`)!.getBoundingClientRect();
    const lastNumberMiddle = gutter.getBoundingClientRect().bottom - Number.parseFloat(getComputedStyle(gutter).lineHeight) / 2;
    await expect(Math.abs((last.top + last.bottom) / 2 - lastNumberMiddle)).toBeLessThan(1);
    await waitFor(() => expect(body().querySelectorAll(".ecu-code-line:not(:has(.ecu-token)):not(:empty)")).toHaveLength(0), { timeout: 5000 });
  },
};

export const Running: Story = {
  args: call(primesCode, { status: running }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    await expect(within(root).getByRole("status")).toHaveTextContent("Running…");
    await expect(slot(root, "timing")).toHaveTextContent(/^\d+ s$/);
    await highlighted(root);
  },
};

const tickCode = 'import time\n\nfor i in range(40):\n    print("tick", i, flush=True)\n    time.sleep(1)';
const ticksUpTo = (n: number) => Array.from({ length: n }, (_, i) => `tick ${i}\n`).join("");
const runningWith = (stdout: string) =>
  call(tickCode, { result: { status: "running", stdout, stderr: "", truncated: { stdout: 0, stderr: 0 } } });

export const RunningWithOutput: Story = {
  args: runningWith(ticksUpTo(3)),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    await expect(within(root).getByRole("status")).toHaveTextContent("Running…");
    await expect(slot(root, "timing")).toHaveTextContent(/^\d+ s$/);
    await expect(slot(root, "stdout")).toHaveTextContent("tick 2");
    // Still running: nothing is said yet of the empty stderr.
    await expect(slot(root, "no-output")).toBeNull();
  },
};

export const RunningWithStopAndLimit: Story = {
  args: {
    ...call(tickCode, { result: { status: "running", stdout: ticksUpTo(3), stderr: "", truncated: { stdout: 0, stderr: 0 }, timeoutMs: 10_000 } }),
    onStop: fn(),
  },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    // The clock beside the run's limit, on one line, and Stop where the student looks.
    const timing = slot(root, "timing")!;
    await expect(timing).toHaveTextContent(/^\d+ s \/ 10 s$/);
    await expect(timing.getBoundingClientRect().height).toBeLessThan(24);
    await userEvent.click(within(root).getByRole("button", { name: "End the program" }));
    await expect(args.onStop).toHaveBeenCalledTimes(1);
  },
};

export const RunningWithStopOnAPhone: Story = {
  ...RunningWithStopAndLimit,
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const header = slot(root, "header")!.getBoundingClientRect();
    // Status, clock, Stop and the fold stay on the header's one line.
    for (const name of ["status", "timing", "stop", "trigger"]) {
      const box = slot(root, name)!.getBoundingClientRect();
      await expect(box.bottom).toBeLessThanOrEqual(header.bottom + 0.5);
      await expect(box.right).toBeLessThanOrEqual(header.right + 0.5);
    }
    await expect(slot(root, "status")).toHaveTextContent("Running…");
  },
};

/** Output arrives a line at a time while the program runs, then the run finishes. */
function LiveOutputDemo({ lines, intervalMs }: { lines: number; intervalMs: number }) {
  const [printed, setPrinted] = useState(1);
  useEffect(() => {
    if (printed > lines) return;
    const timer = setTimeout(() => setPrinted((n) => n + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [printed, lines, intervalMs]);
  const props =
    printed > lines
      ? call(tickCode, { result: completed({ stdout: ticksUpTo(lines), wallTimeMs: lines * intervalMs }) })
      : runningWith(ticksUpTo(printed));
  return <ExecuteCodeCard {...props} />;
}

export const StreamingOutput: Story = {
  args: { status: running },
  render: () => <LiveOutputDemo lines={30} intervalMs={120} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 0"));
    await expect(root).toHaveAttribute("data-phase", "running");
    const body = () => slot(root, "stdout")!.querySelector("pre")!;
    const atEnd = () => body().scrollTop + body().clientHeight >= body().scrollHeight - 4;
    // Past the folded height, the pane follows its newest line.
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 16"), { timeout: 5000 });
    await expect(body().scrollHeight).toBeGreaterThan(body().clientHeight);
    await expect(atEnd()).toBe(true);
    // The reader scrolls up: the pane stays where they put it while output arrives.
    body().scrollTop = 0;
    body().dispatchEvent(new Event("scroll"));
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 20"), { timeout: 5000 });
    await expect(body().scrollTop).toBe(0);
    // Back at the end, it follows again.
    body().scrollTop = body().scrollHeight;
    body().dispatchEvent(new Event("scroll"));
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 24"), { timeout: 5000 });
    await expect(atEnd()).toBe(true);
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "succeeded"), { timeout: 5000 });
    await expect(slot(root, "stdout")).toHaveTextContent("tick 29");
  },
};

export const Succeeded: Story = {
  args: call(primesCode, { result: completed({ stdout: primesOutput, wallTimeMs: 42 }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toHaveTextContent("count: 15");
    // An empty stream takes no room.
    await expect(slot(root, "stderr")).toBeNull();
    await expect(slot(root, "exit")).toHaveAttribute("data-exit-code", "0");
    await expect(slot(root, "timing")).toHaveTextContent("42 ms");
    await highlighted(root);
    // One program line per visual line.
    const [first, second] = [1, 2].map((n) => slot(root, "source")!.querySelector(`[data-line="${n}"]`)!.getBoundingClientRect());
    await expect(second!.top).toBeGreaterThanOrEqual(first!.bottom - 1);
    await expect(second!.left).toBe(first!.left);
    // What a person selects and copies: one line break per line, no line numbers.
    await expect(slot(root, "source")?.querySelector("code")?.innerText.replace(/\n$/, "")).toBe(primesCode);
  },
};

export const SucceededDark: Story = {
  ...Succeeded,
  parameters: { theme: "dark" },
};

export const NarrowestPhone: Story = {
  args: call("import os; os.kill(os.getpid(), 9)", {
    result: completed({ exitCode: null, signal: "SIGKILL", wallTimeMs: 12_345 }),
  }),
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const word = root.querySelector<HTMLElement>(".ecu-status-word")!;
    // The phase word is whole; the exit detail is what gives way, and keeps its text in a tooltip.
    await expect(word).toHaveTextContent("Failed");
    await expect(word.scrollWidth).toBeLessThanOrEqual(word.clientWidth);
    await expect(slot(root, "exit")).toHaveAttribute("title", "killed by SIGKILL");
    const timing = slot(root, "timing")!.getBoundingClientRect();
    await expect(slot(root, "exit")!.getBoundingClientRect().right).toBeLessThanOrEqual(timing.left);
  },
};

export const ConcealedTextIsShown: Story = {
  args: call("print('safe \\x1b[8msecret\\x1b[0m')", { result: completed({ stdout: "safe \x1b[8msecret\x1b[0m\n" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // SGR 8 would hide text the model reads: the card shows it.
    const secret = await within(slot(root, "stdout")!).findByText("secret", { selector: ".ecu-ansi-hidden" });
    await expect(getComputedStyle(secret).visibility).toBe("visible");
    await expect(secret.getBoundingClientRect().width).toBeGreaterThan(0);
  },
};

export const SkippedByANewMessage: Story = {
  args: call("print(1)", { result: { error: "User cancelled tool call by sending a new message." }, isError: true }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "skipped");
    await expect(root).toHaveAttribute("data-tone", "muted");
    await expect(slot(root, "status")).toHaveTextContent("Skipped");
    await expect(slot(root, "message")).toHaveTextContent("This code was not run: a new message was sent before it ran.");
  },
};

// --- Figures and files -----------------------------------------------------

/** The app's file route, here: the figure from the stories' assets, the CSV as a data URL. */
const storyFileUrl = (file: { kind: string; ref: { fileId: string } }) =>
  file.kind === "image" ? squaresPng : `data:text/csv,${encodeURIComponent("1,1\n2,4\n3,9\n")}`;

export const FigureAndFile: Story = {
  args: call(plotCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure, squaresCsv] }),
  }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const figures = within(slot(root, "figures")!);
    const image = figures.getByRole("img", { name: "Squares, x: n, y: n squared" });
    // Room for the figure is kept before it loads, then it shows at its own aspect ratio.
    await expect(image.getBoundingClientRect().height).toBeGreaterThan(0);
    await waitFor(() => expect((image as HTMLImageElement).naturalWidth).toBeGreaterThan(0));
    const links = [...root.querySelectorAll<HTMLAnchorElement>('a[data-slot="execute-code-file"]')];
    await expect(links.map((link) => link.textContent)).toEqual(["Download figure-1.png (6.9 KB)", "Download squares.csv (61 B)"]);
    await expect(links[1]).toHaveAttribute("download", "squares.csv");
    // After the output, in the card's body.
    await expect(slot(root, "stdout")!.compareDocumentPosition(slot(root, "figures")!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  },
};

export const FigureAndFileDark: Story = { ...FigureAndFile, parameters: { theme: "dark" } };

export const TwoFiguresOnAWideCard: Story = {
  args: call(plotCode, {
    result: completed({
      files: [squaresFigure, { ...squaresFigure, name: "figure-2.png", alt: "Cubes", ref: { sessionId: "run-1", fileId: "figure-2" } }],
    }),
  }),
  render: (args) => (
    <div style={{ width: 900 }}>
      <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const [first, second] = within(card(canvasElement)).getAllByRole("img");
    await waitFor(() => expect(second!.getBoundingClientRect().top).toBe(first!.getBoundingClientRect().top));
  },
};

export const TwoFiguresOnAPhone: Story = {
  ...TwoFiguresOnAWideCard,
  render: (args) => (
    <div style={{ width: 340 }}>
      <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const [first, second] = within(card(canvasElement)).getAllByRole("img");
    await waitFor(() => expect(second!.getBoundingClientRect().top).toBeGreaterThan(first!.getBoundingClientRect().bottom));
  },
};

export const FigureEnlarged: Story = {
  args: call(plotCode, { result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure] }) }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const open = within(root).getByRole("button", { name: "Enlarge the figure: Squares, x: n, y: n squared" });
    await userEvent.click(open);
    // The dialog is above the page, outside the card, named by what the figure shows.
    const dialog = await within(document.body).findByRole("dialog", { name: "Squares, x: n, y: n squared" });
    await expect(root.contains(dialog)).toBe(false);
    const large = within(dialog).getByRole("img", { name: "Squares, x: n, y: n squared" });
    await waitFor(() => expect((large as HTMLImageElement).naturalWidth).toBeGreaterThan(0));
    await expect(large.getBoundingClientRect().width).toBeGreaterThan(open.getBoundingClientRect().width);
    await expect(within(dialog).getByRole("link", { name: "Download figure-1.png (6.9 KB)" })).toHaveAttribute("download", "figure-1.png");
    // Escape closes it, and the focus goes back to the figure.
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(within(document.body).queryByRole("dialog")).toBeNull());
    await expect(open).toHaveFocus();
  },
};

export const FigureEnlargedDark: Story = {
  ...FigureEnlarged,
  parameters: { theme: "dark" },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await userEvent.click(within(root).getByRole("button", { name: /Enlarge the figure/ }));
    const dialog = await within(document.body).findByRole("dialog");
    // The dialog takes the card's scheme: its surface is the card's.
    await expect(getComputedStyle(dialog).backgroundColor).toBe(getComputedStyle(root).backgroundColor);
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(within(document.body).queryByRole("dialog")).toBeNull());
  },
};

export const FigurePending: Story = {
  args: call(plotCode, { status: running }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    // A program that draws keeps room for its figure while it runs.
    const pending = slot(root, "figure-pending")!;
    await expect(pending).toHaveTextContent("The figure appears when the program ends.");
    await expect(pending.getBoundingClientRect().height).toBeGreaterThan(100);
  },
};

export const FigureNoLongerAvailable: Story = {
  args: call(plotCode, { result: completed({ files: [squaresFigure] }) }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={() => "/no-such-file.png"} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await waitFor(() => expect(slot(root, "file-unavailable")).toHaveTextContent("figure-1.png is no longer available"));
    await expect(within(root).queryByRole("img")).toBeNull();
  },
};

export const FailedWithTraceback: Story = {
  args: call(tracebackCode, {
    result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "failed");
    await expect(slot(root, "exit")).toHaveAttribute("data-exit-code", "1");
    await expect(slot(root, "stderr")).toHaveTextContent("ZeroDivisionError: division by zero");
    await expect(slot(root, "stderr")).toHaveAttribute("data-tone", "danger");
    await expect(canvas.getByRole("button", { name: "line 2" })).toBeVisible();
    // The error first, in the header: above the code and the output, before the student reads the traceback.
    const error = slot(root, "error")!;
    await expect(error).toBeVisible();
    await expect(error).toHaveTextContent("ZeroDivisionError: division by zero");
    await expect(slot(root, "header")).toContainElement(error);
    await expect(error.getBoundingClientRect().bottom).toBeLessThanOrEqual(slot(root, "source")!.getBoundingClientRect().top);
  },
};

export const FailedDark: Story = { ...FailedWithTraceback, parameters: { theme: "dark" } };

export const TracebackLineClicked: Story = {
  args: FailedWithTraceback.args,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await userEvent.click(within(root).getByRole("button", { name: "line 2" }));
    const line = slot(root, "source")?.querySelector('[data-line="2"]');
    await expect(line).toHaveAttribute("data-focused", "true");
    await expect(line).toHaveTextContent("return sum(values) / len(values)");
  },
};

const longFailingProgram = [
  "# Grades of the class, one line per student",
  ...Array.from({ length: 26 }, (_, i) => `grade_${i} = ${i % 5} + 1  # a comment long enough to run past a phone's width`),
  "print(sum(grades) / len(grades))",
].join("\n");

/** On a phone, a traceback link far down a long program: the code scrolls down to the line, never sideways. */
export const TracebackLineOnAPhone: Story = {
  args: call(longFailingProgram, {
    result: completed({
      stderr: 'Traceback (most recent call last):\n  File "<exec>", line 28, in <module>\nNameError: name \'grades\' is not defined\n',
      exitCode: 1,
    }),
  }),
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pre = slot(root, "source")!.querySelector("pre")!;
    await userEvent.click(within(root).getByRole("button", { name: "line 28" }));
    const line = pre.querySelector<HTMLElement>('[data-line="28"]')!;
    await expect(line).toHaveAttribute("data-focused", "true");
    await waitFor(() => {
      const box = line.getBoundingClientRect();
      const view = pre.getBoundingClientRect();
      expect(box.top).toBeGreaterThanOrEqual(view.top);
      expect(box.bottom).toBeLessThanOrEqual(view.bottom);
    });
    await expect(pre.scrollLeft).toBe(0);
  },
};

export const WarningOnStderr: Story = {
  args: call('import warnings\nprint("result: 42")\nwarnings.warn("float precision")', {
    result: completed({
      stdout: "result: 42\n",
      stderr: '<exec>:3: UserWarning: float precision\n  warnings.warn("float precision")\n',
    }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(canvas.getByRole("group", { name: "stdout" })).toHaveTextContent("result: 42");
    // A warning on a successful run is a stream, not an error: no danger tone.
    const stderr = canvas.getByRole("group", { name: "stderr" });
    await expect(stderr).toHaveTextContent("UserWarning");
    await expect(stderr).toHaveAttribute("data-tone", "neutral");
    await expect(getComputedStyle(stderr.querySelector("pre")!).color).toBe(getComputedStyle(slot(root, "stdout")!.querySelector("pre")!).color);
  },
};

export const KilledBySignal: Story = {
  args: call("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", {
    result: completed({ exitCode: null, signal: "SIGKILL" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "failed");
    await expect(slot(root, "exit")).toHaveTextContent("killed by SIGKILL");
    // No pane claims there were "no errors": the run printed nothing, and the status says how it ended.
    await expect(slot(root, "no-output")).toHaveTextContent("The program printed nothing.");
    await expect(slot(root, "stderr")).toBeNull();
  },
};

export const TimedOut: Story = {
  args: call("i = 0\nwhile True:\n    i += 1\n    if i % 10_000_000 == 0:\n        print(i)", {
    result: {
      status: "timeout",
      timeoutMs: 5000,
      stdout: "10000000\n20000000\n",
      stderr: "",
      wallTimeMs: 5003,
      truncated: { stdout: 0, stderr: 0 },
    },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "timed-out");
    await expect(slot(root, "message")).toHaveTextContent("Stopped after 5 s");
    await expect(slot(root, "stdout")).toHaveTextContent("20000000");
  },
};

export const Busy: Story = {
  args: call(primesCode, {
    result: { status: "busy", retryAfterMs: 30_000, message: "Rate limit reached" },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "busy");
    await expect(slot(root, "message")).toHaveTextContent(/Try again in (30|29) s/);
  },
};

export const BusyWithTryAgain: Story = {
  args: { ...Busy.args, onRetry: fn() },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const retry = within(root).getByRole("button", { name: "Try again" });
    // Under the message that says when, as wide as its words.
    await expect(retry.getBoundingClientRect().top).toBeGreaterThanOrEqual(slot(root, "message")!.getBoundingClientRect().bottom);
    await expect(retry.getBoundingClientRect().width).toBeLessThan(root.getBoundingClientRect().width / 2);
    await userEvent.click(retry);
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

export const AwaitingApproval: Story = {
  args: {
    ...call(primesCode, { status: { type: "requires-action", reason: "interrupt" } }),
    approval: { id: "approval-1" },
    onApprove: fn(),
    onDeny: fn(),
  },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "awaiting-approval");
    await expect(slot(root, "message")).toHaveTextContent("Run this Python program in the sandbox?");
    await expect(slot(root, "source")).toHaveTextContent("primes = [n for n in range(2, 50) if is_prime(n)]");
    await highlighted(root);
    await expect(canvas.getByRole("button", { name: "Run" })).toBeEnabled();
    await expect(canvas.getByRole("button", { name: "Deny" })).toBeEnabled();
    await expect(args.onApprove).not.toHaveBeenCalled();
  },
};

export const RunDoubleClicked: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    const run = canvas.getByRole("button", { name: "Run" });
    await userEvent.dblClick(run);
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
    await expect(args.onDeny).not.toHaveBeenCalled();
    await expect(run).toBeDisabled();
    await expect(canvas.getByRole("button", { name: "Deny" })).toBeDisabled();
    // The focus stays in the card rather than falling back to the page.
    await expect(root).toHaveFocus();
  },
};

export const DenyWithReason: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    await userEvent.click(await canvas.findByRole("button", { name: "Add a reason" }));
    // The field takes the focus as it opens, on a row of its own under the buttons.
    const field = canvas.getByRole("textbox", { name: "Why not run it? (optional)" });
    await expect(field).toHaveFocus();
    await expect(field.getBoundingClientRect().top).toBeGreaterThanOrEqual(canvas.getByRole("button", { name: "Deny" }).getBoundingClientRect().bottom);
    // The control that opened the field has done its work.
    await expect(canvas.queryByRole("button", { name: "Add a reason" })).toBeNull();
    await userEvent.keyboard("I want to try it myself first");
    await userEvent.click(canvas.getByRole("button", { name: "Deny" }));
    await expect(args.onDeny).toHaveBeenCalledTimes(1);
    await expect(args.onDeny).toHaveBeenCalledWith("I want to try it myself first");
    await expect(args.onApprove).not.toHaveBeenCalled();
  },
};

export const ApproveWithKeyboard: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    canvas.getByRole("button", { name: "Run" }).focus();
    await userEvent.keyboard("{Enter}");
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
  },
};

export const Denied: Story = {
  args: call(primesCode, {
    approval: { id: "approval-1", approved: false, reason: "Try it yourself first." },
    isError: true,
    result: { error: "Try it yourself first." },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "denied");
    await expect(slot(root, "message")).toHaveTextContent("This code was not run. Reason: Try it yourself first.");
    await expect(slot(root, "stdout")).toBeNull();
    // Code that did not run is folded to its first lines, under a dashed frame; the reason stays in view.
    const source = slot(root, "source")!;
    await expect(source).toHaveAttribute("data-not-run", "true");
    await expect(getComputedStyle(source).borderTopStyle).toBe("dashed");
    await expect(within(source).getByRole("button", { name: "Show more (11 lines)" })).toBeVisible();
    const line = source.querySelector<HTMLElement>('[data-line="1"]')!.getBoundingClientRect().height;
    await expect(source.querySelector("pre")!.getBoundingClientRect().height).toBeLessThan(line * 5);
  },
};

export const ApprovalExpired: Story = {
  // What a server that expires approvals sends back: a denial with the reason "expired".
  args: call(primesCode, { approval: { id: "approval-1", approved: false, reason: "expired" }, isError: true, result: { error: "expired" } }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "denied");
    await expect(slot(root, "message")).toHaveTextContent("The approval request expired, so this code was not run.");
  },
};

export const Cancelled: Story = {
  args: call(primesCode, { status: { type: "incomplete", reason: "cancelled" } }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "cancelled");
    await expect(slot(root, "message")).toHaveTextContent("cancelled before it finished");
  },
};

export const CancelledWithOutput: Story = {
  args: {
    ...call(tickCode, { result: { status: "running", stdout: ticksUpTo(4), stderr: "", truncated: { stdout: 0, stderr: 0 }, timeoutMs: 10_000 } }),
    status: { type: "incomplete", reason: "cancelled" },
  },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "cancelled");
    await expect(slot(root, "message")).toHaveTextContent("cancelled before it finished");
    // What it printed before it was stopped stays.
    await expect(slot(root, "stdout")).toHaveTextContent("tick 3");
    await expect(slot(root, "stop")).toBeNull();
  },
};

export const ToolError: Story = {
  args: call(primesCode, {
    result: {
      status: "error",
      code: "sandbox_unavailable",
      message: "The code sandbox did not answer. Try again in a minute.",
    },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "error");
    await expect(slot(root, "message")).toHaveTextContent("The code sandbox did not answer");
  },
};

export const UnrecognisedResult: Story = {
  args: call(primesCode, { result: { answer: 42, files: ["plot.png"] } }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "unrecognised");
    await expect(root).toHaveAttribute("data-tone", "muted");
    await expect(within(root).getByRole("status")).toHaveTextContent("Result not understood");
    await expect(slot(root, "raw")).toHaveTextContent('"answer": 42');
  },
};

export const AwaitingClient: Story = {
  args: call(primesCode, { status: { type: "requires-action", reason: "tool-calls" }, execution: "client" }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "awaiting-client");
    await expect(slot(root, "message")).toHaveTextContent("Waiting for the browser");
  },
};

// --- Edge cases -----------------------------------------------------------

export const EmptyOutput: Story = {
  args: call("x = 6 * 7", { result: completed({}) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toBeNull();
    await expect(slot(root, "stderr")).toBeNull();
    await expect(slot(root, "no-output")).toHaveTextContent("The program printed nothing.");
  },
};

export const StderrOnly: Story = {
  args: call('import sys\nprint("careful", file=sys.stderr)', {
    result: completed({ stderr: "careful\n" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toBeNull();
    await expect(slot(root, "stderr")).toHaveTextContent("careful");
  },
};

/** A one-line program with a one-line answer stays a small card. */
export const Compact: Story = {
  args: call("print(sum(range(101)))", { result: completed({ stdout: "5050\n", wallTimeMs: 12 }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toHaveTextContent("5050");
    // Header, the code under its name and copy button, the output: no more.
    await expect(root.getBoundingClientRect().height).toBeLessThan(210);
  },
};

const longOutputArgs = call("for i in range(200):\n    print(f'line {i + 1}: ' + 'x' * (i % 40))", {
  result: completed({ stdout: longOutput(200) }),
});

export const LongOutput: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pane = slot(root, "stdout")!;
    const body = pane.querySelector("pre")!;
    // Folded: a dozen lines show, the rest scrolls, and the one control sits under the pane.
    await expect(visibleLines(body)).toBeLessThan(14);
    await expect(body.scrollHeight).toBeGreaterThan(body.clientHeight * 5);
    const more = within(pane).getByRole("button", { name: "Show more (200 lines)" });
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await expect(more.getBoundingClientRect().top).toBeGreaterThanOrEqual(body.getBoundingClientRect().bottom - 1);
  },
};

export const LongOutputShownMore: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pane = slot(root, "stdout")!;
    const body = pane.querySelector("pre")!;
    const folded = body.clientHeight;
    await userEvent.click(within(pane).getByRole("button", { name: "Show more (200 lines)" }));
    await expect(within(pane).getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
    // Taller, but bounded: the card never outgrows the chat column's view.
    await expect(body.clientHeight).toBeGreaterThan(folded * 1.5);
    await expect(body.clientHeight).toBeLessThanOrEqual(Math.min(window.innerHeight * 0.7, 640) + 1);
    await expect(body.scrollHeight).toBeGreaterThan(body.clientHeight);
  },
};

export const VeryLongOutput: Story = {
  args: call("for i in range(5000):\n    print(f'line {i + 1}')", {
    result: completed({ stdout: longOutput(5000) }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "hidden")).toHaveTextContent("4,740 lines hidden");
    await expect(slot(root, "stdout")).toHaveTextContent("line 5000:");
    // One control for more in the pane: it shows all, and "Show less" windows it again.
    const stdout = within(slot(root, "stdout")!);
    await expect(stdout.getAllByRole("button")).toHaveLength(2);
    await userEvent.click(stdout.getByRole("button", { name: "Show all" }));
    await expect(slot(root, "hidden")).toBeNull();
    await expect(slot(root, "stdout")).toHaveTextContent("line 2500:");
    await userEvent.click(stdout.getByRole("button", { name: "Show less" }));
    await expect(slot(root, "hidden")).toHaveTextContent("4,740 lines hidden");
  },
};

export const TruncatedOutput: Story = {
  args: call("print('x' * 20_000)", {
    result: completed({ stdout: "x".repeat(8000), truncated: { stdout: 12_001, stderr: 0 } }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "truncated")).toHaveTextContent("The server cut 12,001 characters");
  },
};

export const AnsiColours: Story = {
  args: call("run_tests()", { result: completed({ stdout: ansiOutput }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    await expect(stdout.textContent).not.toContain("\x1b");
    await expect(stdout.textContent).not.toContain("[0m");
    // The ANSI parser loads in its own chunk; until then the text shows plain.
    const passed = await within(stdout).findByText("✔ test_addition passed", { selector: ".ecu-ansi-fg" });
    await expect(passed.style.getPropertyValue("--ecu-ansi-fg")).toBe("var(--ecu-ansi-green)");
    await expect(getComputedStyle(passed).color).not.toBe(getComputedStyle(stdout).color);
    await expect(stdout.querySelector(".ecu-ansi-bold")).toHaveTextContent("Test report");
    await expect(stdout).toHaveTextContent("progress 100%");
    await expect(stdout).not.toHaveTextContent("progress 50%");
  },
};

export const AnsiColoursDark: Story = { ...AnsiColours, parameters: { theme: "dark" } };

export const UnicodeOutput: Story = {
  args: call("print('π ≈ 3.14159')", { result: completed({ stdout: unicodeOutput }) }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "stdout")).toHaveTextContent("Grüße, 世界! 🐍");
  },
};

export const HtmlLookingOutput: Story = {
  args: call("print(html)", { result: completed({ stdout: htmlOutput, stderr: "<b>bold?</b>" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toHaveTextContent("<script>window.__pwned = true</script>");
    await expect(root.querySelector("script, img, a, b")).toBeNull();
    await expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  },
};

export const LargeProgram: Story = {
  args: call(largeProgram(), { result: completed({ stdout: "done\n" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const source = slot(root, "source")!;
    await expect(source.textContent?.length).toBeGreaterThanOrEqual(20_000);
    await highlighted(root);
    // Selected and copied text keeps one line break per line across the blocks of lines.
    await expect(source.querySelector("code")!.innerText.replace(/\n$/, "")).toBe(largeProgram());
    // Folded to 16 lines; "Show more" opens it to a bounded height that scrolls.
    const body = source.querySelector("pre")!;
    await expect(Math.round(visibleLines(body))).toBeLessThanOrEqual(17);
    const folded = body.clientHeight;
    await userEvent.click(within(source).getByRole("button", { name: /^Show more/ }));
    await expect(body.clientHeight).toBeGreaterThan(folded * 1.5);
    await expect(body.clientHeight).toBeLessThanOrEqual(Math.min(window.innerHeight * 0.7, 640) + 1);
    await expect(root.getBoundingClientRect().height).toBeLessThan(900);
    await expect(within(source).getByRole("button", { name: "Show less" })).toBeVisible();
  },
};

export const GermanLabels: Story = {
  args: {
    ...call(tracebackCode, { result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }) }),
    labels: germanLabels,
  },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(canvas.getByRole("status")).toHaveTextContent("Fehlgeschlagen");
    await expect(canvas.getByRole("button", { name: "Programm und Ausgabe ausblenden" })).toBeInTheDocument();
    await expect(canvas.getByRole("group", { name: "stdout" })).toBeInTheDocument();
  },
};


export const InvisibleCharacters: Story = {
  args: call('print("saved invoice_\\u202Efdp.exe")', { result: completed({ stdout: bidiOutput }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    const markers = [...stdout.querySelectorAll<HTMLElement>(".ecu-invisible")];
    await expect(markers.map((marker) => marker.dataset.codePoint)).toEqual(["U+202E", "U+200B"]);
    // The marker is drawn, and the override reorders nothing: "fdp.exe" reads as written.
    await expect(getComputedStyle(markers[0]!, "::before").content).toContain("U+202E");
    const range = document.createRange();
    range.selectNodeContents(stdout.querySelector("pre")!);
    await expect(range.toString()).toBe(bidiOutput);
    // The characters on either side of the override keep their order on screen.
    const charBox = (node: Node, offset: number) => {
      const r = document.createRange();
      r.setStart(node, offset);
      r.setEnd(node, offset + 1);
      return r.getBoundingClientRect();
    };
    const before = markers[0]!.previousSibling!;
    const after = markers[0]!.nextSibling!;
    await expect(charBox(after, 0).left).toBeGreaterThanOrEqual(charBox(before, before.textContent!.length - 1).right);
    await expect(after.textContent).toMatch(/^fdp\.exe/);
    // Left to right, as written: an active override would put "f" to the right of "d".
    await expect(charBox(after, 0).left).toBeLessThan(charBox(after, 1).left);
  },
};

// --- Accessibility of the controls ----------------------------------------

export const KeyboardFocus: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const code = slot(root, "source")!.querySelector("pre")!;
    code.focus({ focusVisible: true } as FocusOptions);
    // The ring of a scrolling area sits inside it, where the pane's clipping cannot hide it.
    const style = getComputedStyle(code);
    await expect(style.outlineStyle).toBe("solid");
    await expect(Number.parseFloat(style.outlineOffset)).toBeLessThan(0);
    // Every control is at least 24 px high.
    for (const button of root.querySelectorAll("button")) {
      if (button.closest(".ecu-frame-link") || button.dataset.slot === "execute-code-frame-link") continue;
      await expect(button.getBoundingClientRect().height).toBeGreaterThanOrEqual(24);
    }
  },
};

/** WCAG contrast between two computed colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    canvas.fillStyle = color;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, bl] = [...canvas.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

const ansiPalette =
  ["30", "31", "32", "33", "34", "35", "36", "37", "90", "91", "92", "93", "94", "95", "96", "97"]
    .map((code) => `\x1b[${code}mcolour ${code}\x1b[0m`)
    .join("\n") + "\n";

function ansiReadable(): Story["play"] {
  return async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    await waitFor(() => expect(stdout.querySelectorAll(".ecu-ansi-fg")).toHaveLength(16));
    const background = getComputedStyle(stdout).backgroundColor;
    for (const span of stdout.querySelectorAll<HTMLElement>(".ecu-ansi-fg")) {
      await expect({ text: span.textContent, ratio: contrast(getComputedStyle(span).color, background) >= 4.5 }).toEqual({
        text: span.textContent,
        ratio: true,
      });
    }
  };
}

export const AnsiPaletteLight: Story = {
  args: call("palette()", { result: completed({ stdout: ansiPalette }) }),
  parameters: { theme: "light" },
  play: ansiReadable(),
};

export const AnsiPaletteDark: Story = { ...AnsiPaletteLight, parameters: { theme: "dark" } };

// --- Galleries ------------------------------------------------------------

const galleryStates: Record<ExecuteCodePhase, ExecuteCodeCardProps> = {
  writing: { status: running, args: {}, argsText: writingArgsText },
  "awaiting-approval": {
    ...call("print(sum(range(101)))", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } }),
    onApprove: () => undefined,
    onDeny: () => undefined,
  },
  running: call(primesCode, { status: running }),
  succeeded: call("print(sum(range(101)))", { result: completed({ stdout: "5050\n", wallTimeMs: 12 }) }),
  failed: call(tracebackCode, { result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }) }),
  "timed-out": call("while True: pass", {
    result: { status: "timeout", timeoutMs: 5000, stdout: "", stderr: "", wallTimeMs: 5000, truncated: { stdout: 0, stderr: 0 } },
  }),
  busy: call("print(1)", { result: { status: "busy", retryAfterMs: 12_000, message: "" } }),
  denied: call("print(1)", { approval: { id: "a", approved: false, reason: "Try it yourself first." } }),
  cancelled: call("print(1)", { status: { type: "incomplete", reason: "cancelled" } }),
  error: call("print(1)", { result: { status: "error", code: "sandbox_unavailable", message: "The sandbox is down." } }),
  unrecognised: call("print(1)", { result: { answer: 42 } }),
  "awaiting-client": call("print(1)", { status: { type: "requires-action", reason: "tool-calls" }, execution: "client" }),
  skipped: call("print(1)", { result: { error: "User cancelled tool call by sending a new message." }, isError: true }),
};

function PhaseGallery({ width }: { width?: number }) {
  return (
    <div style={{ display: "grid", gap: 12, width }}>
      {EXECUTE_CODE_PHASES.map((phase) => (
        <ExecuteCodeCard key={phase} {...galleryStates[phase]} />
      ))}
    </div>
  );
}

const everyPhaseShows: Story["play"] = async ({ canvasElement }) => {
  const cards = [...canvasElement.querySelectorAll('[data-slot="execute-code"]')];
  await expect(cards.map((element) => element.getAttribute("data-phase"))).toEqual([...EXECUTE_CODE_PHASES]);
  // Cards with different outcomes look different at a glance: their tone differs.
  const tone = (phase: ExecuteCodePhase) => getComputedStyle(cards[EXECUTE_CODE_PHASES.indexOf(phase)]!).boxShadow;
  await expect(tone("succeeded")).not.toBe(tone("failed"));
  await expect(tone("failed")).not.toBe(tone("running"));
};

/** Every phase, untouched, for a designer's side-by-side review. */
export const Gallery: Story = {
  args: { status: running },
  parameters: { theme: "light" },
  render: () => <PhaseGallery />,
  play: everyPhaseShows,
};

export const GalleryDark: Story = { ...Gallery, parameters: { theme: "dark" } };

/** A phone's chat column: the header stays on one line, nothing overflows. */
export const GalleryNarrow: Story = {
  ...Gallery,
  render: () => <PhaseGallery width={343} />,
  play: async (context) => {
    await everyPhaseShows(context);
    for (const header of context.canvasElement.querySelectorAll<HTMLElement>('[data-slot="execute-code-header"]')) {
      await expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth + 1);
      // One row, and under it a failed run's error alone.
      await expect(header.querySelector(".ecu-header-row")!.getBoundingClientRect().height).toBeLessThan(48);
    }
  },
};

// --- Theming --------------------------------------------------------------

/** shadcn/ui's "violet" theme, as a shadcn app's globals.css defines it. */
const shadcnViolet = {
  "--radius": "1rem",
  "--card": "oklch(0.985 0.01 300)",
  "--card-foreground": "oklch(0.2 0.03 290)",
  "--muted": "oklch(0.95 0.02 300)",
  "--muted-foreground": "oklch(0.45 0.05 290)",
  "--border": "oklch(0.88 0.04 300)",
  "--ring": "oklch(0.6 0.2 293)",
  "--destructive": "oklch(0.58 0.22 27)",
  "--primary": "oklch(0.54 0.25 293)",
  "--primary-foreground": "oklch(0.97 0.01 300)",
  "--font-sans": "Georgia, serif",
} as CSSProperties;

export const ShadcnTheme: Story = {
  args: { ...galleryStates["awaiting-approval"] },
  render: (args) => (
    <div style={shadcnViolet}>
      <ExecuteCodeCard {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const host = root.parentElement!;
    const probe = (value: string) => {
      const element = document.createElement("span");
      element.style.color = value;
      host.append(element);
      const color = getComputedStyle(element).color;
      element.remove();
      return color;
    };
    const style = getComputedStyle(root);
    await expect(style.backgroundColor).toBe(probe("var(--card)"));
    await expect(style.color).toBe(probe("var(--card-foreground)"));
    await expect(style.borderTopLeftRadius).toBe("16px");
    await expect(style.fontFamily).toContain("Georgia");
    const run = within(root).getByRole("button", { name: "Run" });
    await expect(getComputedStyle(run).backgroundColor).toBe(probe("var(--primary)"));
  },
};
