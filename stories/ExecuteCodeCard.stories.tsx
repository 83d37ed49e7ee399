import type { Meta, StoryObj } from "@storybook/react-vite";
import { useEffect, useState } from "react";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard, type ExecuteCodeCardProps } from "../src";
import { germanLabels } from "../src/locales/de";
import {
  ansiOutput,
  call,
  completed,
  htmlOutput,
  largeProgram,
  longOutput,
  primesCode,
  primesOutput,
  running,
  tracebackCode,
  tracebackStderr,
  unicodeOutput,
  writingArgsText,
} from "./fixtures";

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

/** Waits until shiki's tokens have replaced the plain text of the code block. */
const highlighted = (root: HTMLElement) =>
  waitFor(() => expect(slot(root, "source")?.querySelector(".ecu-token")).not.toBeNull(), { timeout: 5000 });

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

export const Running: Story = {
  args: call(primesCode, { status: running }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    await expect(within(root).getByRole("status")).toHaveTextContent("Running…");
    await expect(slot(root, "timing")).toHaveTextContent(/elapsed/);
    await highlighted(root);
  },
};

export const Succeeded: Story = {
  args: call(primesCode, { result: completed({ stdout: primesOutput, wallTimeMs: 42 }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toHaveTextContent("count: 15");
    await expect(slot(root, "stderr")).toHaveTextContent("No errors.");
    await expect(slot(root, "exit")).toHaveAttribute("data-exit-code", "0");
    await expect(slot(root, "timing")).toHaveTextContent("took 42 ms");
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
    await userEvent.click(canvas.getByRole("button", { name: "line 2" }));
    const line = slot(root, "source")?.querySelector('[data-line="2"]');
    await expect(line).toHaveAttribute("data-focused", "true");
    await expect(line).toHaveTextContent("return sum(values) / len(values)");
  },
};

export const FailedDark: Story = { ...FailedWithTraceback, parameters: { theme: "dark" } };

export const KilledBySignal: Story = {
  args: call("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", {
    result: completed({ exitCode: null, signal: "SIGKILL" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "failed");
    await expect(slot(root, "exit")).toHaveTextContent("Killed by SIGKILL");
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
    await userEvent.type(canvas.getByRole("textbox", { name: "Why not run it? (optional)" }), "I want to try it myself first");
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
    await expect(root).toHaveAttribute("data-phase", "error");
    await expect(slot(root, "message")).toHaveAttribute("data-kind", "unrecognised");
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
    await expect(slot(root, "stdout")).toHaveTextContent("No output.");
    await expect(slot(root, "stderr")).toHaveTextContent("No errors.");
  },
};

export const StderrOnly: Story = {
  args: call('import sys\nprint("careful", file=sys.stderr)', {
    result: completed({ stderr: "careful\n" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toHaveTextContent("No output.");
    await expect(slot(root, "stderr")).toHaveTextContent("careful");
  },
};

export const BothPanes: Story = {
  args: call('import warnings\nprint("result: 42")\nwarnings.warn("float precision")', {
    result: completed({
      stdout: "result: 42\n",
      stderr: '<exec>:3: UserWarning: float precision\n  warnings.warn("float precision")\n',
    }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(canvas.getByRole("group", { name: "Output" })).toHaveTextContent("result: 42");
    await expect(canvas.getByRole("group", { name: "Errors" })).toHaveTextContent("UserWarning");
  },
};

export const LongOutput: Story = {
  args: call("for i in range(200):\n    print(f'line {i + 1}: ' + 'x' * (i % 40))", {
    result: completed({ stdout: longOutput(200) }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = within(slot(root, "stdout")!);
    const expand = stdout.getByRole("button", { name: "Expand" });
    await expect(expand).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(expand);
    await expect(stdout.getByRole("button", { name: "Collapse" })).toHaveAttribute("aria-expanded", "true");
    await expect(slot(root, "stdout")).toHaveTextContent("line 200:");
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
    await userEvent.click(within(slot(root, "stdout")!).getByRole("button", { name: "Show all" }));
    await expect(slot(root, "hidden")).toBeNull();
    await expect(slot(root, "stdout")).toHaveTextContent("line 2500:");
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
    await userEvent.click(within(source).getByRole("button", { name: "Expand" }));
    await expect(within(source).getByRole("button", { name: "Collapse" })).toBeVisible();
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
    await expect(canvas.getByRole("group", { name: "Ausgabe" })).toBeInTheDocument();
    await expect(canvas.getByRole("group", { name: "Fehler" })).toBeInTheDocument();
  },
};

const galleryStates: [string, ExecuteCodeCardProps][] = [
  ["writing", { status: running, args: {}, argsText: writingArgsText }],
  ["running", call(primesCode, { status: running })],
  ["succeeded", call(primesCode, { result: completed({ stdout: primesOutput }) })],
  ["failed", call(tracebackCode, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })],
  ["timed-out", call("while True: pass", { result: { status: "timeout", timeoutMs: 5000, stdout: "", stderr: "", wallTimeMs: 5000, truncated: { stdout: 0, stderr: 0 } } })],
  ["busy", call("print(1)", { result: { status: "busy", retryAfterMs: 12_000, message: "" } })],
  ["denied", call("print(1)", { approval: { id: "a", approved: false } })],
  ["cancelled", call("print(1)", { status: { type: "incomplete", reason: "cancelled" } })],
  ["error", call("print(1)", { result: { status: "error", code: "sandbox_unavailable", message: "The sandbox is down." } })],
];

/** Every phase at once, for a designer's side-by-side review. */
export const GalleryDark: Story = {
  args: { status: running },
  parameters: { theme: "dark" },
  render: () => (
    <div style={{ display: "grid", gap: 16 }}>
      {galleryStates.map(([name, props]) => (
        <ExecuteCodeCard key={name} {...props} />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const phases = [...canvasElement.querySelectorAll('[data-slot="execute-code"]')].map((el) =>
      el.getAttribute("data-phase"),
    );
    await expect(phases).toEqual(galleryStates.map(([name]) => name));
  },
};
