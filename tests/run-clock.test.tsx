// The card's running clock: from the run's own start as its result says it,
// the same in a card that mounts in the middle of the run (a reload), and not
// before Python has loaded in the browser.
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeExecuteCodeRenderer, type ExecuteCodeRunner, type ExecuteCodeToolProps } from "../src/assistant-ui";
import type { ExecuteCodeResult, ExecuteCodeRunningResult } from "../src/contract";
import { germanLabels } from "../src/locales/de";
import { ExecuteCodeCard } from "../src";
import { call, running } from "../stories/fixtures";

const NOW = Date.UTC(2026, 0, 12, 9, 0, 0);

const runningResult = (extra: Partial<ExecuteCodeRunningResult>): ExecuteCodeRunningResult => ({
  status: "running",
  stdout: "",
  stderr: "",
  truncated: { stdout: 0, stderr: 0 },
  timeoutMs: 60_000,
  ...extra,
});

const card = (result: ExecuteCodeRunningResult) => call("import time\ntime.sleep(30)", { status: running, result });
const clock = () => document.querySelector("[data-slot=execute-code-timing]");
const statusWord = () => document.querySelector(".ecu-status-word");

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("the running clock", () => {
  it("counts from when the program started, as its result says, not from when the card mounted", () => {
    render(<ExecuteCodeCard {...card(runningResult({ startedAt: NOW - 3_200 }))} />);
    expect(clock()).toHaveTextContent(/^3 s \/ 60 s$/);
    expect(screen.getByRole("timer", { name: "Running for 3 s of at most 60 s" })).toBe(clock());
    // It turns with the run's seconds: 0.8 s later, not a whole second after the mount.
    act(() => vi.advanceTimersByTime(800));
    expect(clock()).toHaveTextContent(/^4 s \/ 60 s$/);
    act(() => vi.advanceTimersByTime(1_000));
    expect(clock()).toHaveTextContent(/^5 s \/ 60 s$/);
  });

  it("reads the same in a card mounted in the middle of the run, as after a reload", () => {
    const result = runningResult({ startedAt: NOW - 1_000 });
    const first = render(<ExecuteCodeCard {...card(result)} />);
    act(() => vi.advanceTimersByTime(2_000));
    expect(clock()).toHaveTextContent(/^3 s \/ 60 s$/);
    first.unmount();
    // The page reloads: the chat hands the new card the latest running result, sent long before.
    render(<ExecuteCodeCard {...card(result)} />);
    expect(clock()).toHaveTextContent(/^3 s \/ 60 s$/);
  });

  it("moves on from the mount to the run's start once a result says it", () => {
    const { rerender } = render(<ExecuteCodeCard {...call("x = 1", { status: running })} />);
    expect(clock()).toHaveTextContent(/^0 s$/);
    rerender(
      <ExecuteCodeCard {...call("x = 1", { status: running, result: runningResult({ startedAt: NOW - 7_000 }) })} />,
    );
    expect(clock()).toHaveTextContent(/^7 s \/ 60 s$/);
  });

  it("a browser whose clock is behind the server's shows 0 s, never less; one far ahead, no more than the limit", () => {
    const { rerender } = render(<ExecuteCodeCard {...card(runningResult({ startedAt: NOW + 2_000 }))} />);
    expect(clock()).toHaveTextContent(/^0 s \/ 60 s$/);
    rerender(<ExecuteCodeCard {...card(runningResult({ startedAt: NOW - 3_600_000 }))} />);
    expect(clock()).toHaveTextContent(/^60 s \/ 60 s$/);
  });

  it("without a start in the result, counts from when the card started showing the run", () => {
    render(<ExecuteCodeCard {...card(runningResult({}))} />);
    expect(clock()).toHaveTextContent(/^0 s \/ 60 s$/);
    act(() => vi.advanceTimersByTime(2_000));
    expect(clock()).toHaveTextContent(/^2 s \/ 60 s$/);
  });
});

describe("Python starting in the browser", () => {
  it("says Python is starting, with no clock, until the program starts; then counts from its start", () => {
    const { rerender } = render(<ExecuteCodeCard {...card(runningResult({ starting: true }))} />);
    expect(document.querySelector("[data-slot=execute-code]")).toHaveAttribute("data-phase", "running");
    expect(statusWord()).toHaveTextContent("Starting Python…");
    expect(clock()).toBeNull();
    act(() => vi.advanceTimersByTime(12_700));
    expect(clock()).toBeNull();
    rerender(<ExecuteCodeCard {...card(runningResult({ startedAt: Date.now() }))} />);
    expect(statusWord()).toHaveTextContent("Running…");
    expect(clock()).toHaveTextContent(/^0 s \/ 60 s$/);
    act(() => vi.advanceTimersByTime(2_000));
    expect(clock()).toHaveTextContent(/^2 s \/ 60 s$/);
  });

  it("in German", () => {
    render(<ExecuteCodeCard {...card(runningResult({ starting: true }))} labels={germanLabels} />);
    expect(statusWord()).toHaveTextContent("Python startet…");
  });

  it("a runner that says when the program starts: the card waits for it, the limit counts from there", async () => {
    let started!: (at: number) => void;
    let finish!: (result: ExecuteCodeResult) => void;
    const run = vi.fn(
      (_code: string, options?: { onStart?: (startedAt: number) => void }) =>
        new Promise<ExecuteCodeResult>((resolve) => {
          started = options!.onStart!;
          finish = resolve;
        }),
    );
    const executor: ExecuteCodeRunner = { run, timeoutMs: 60_000, reportsStart: true };
    const Card = makeExecuteCodeRenderer({ execution: "client", executor });
    const props = {
      type: "tool-call",
      toolCallId: "call_starting",
      toolName: "execute_code",
      args: { code: "print(1)" },
      argsText: '{"code":"print(1)"}',
      status: { type: "requires-action", reason: "tool-calls" },
      isError: false,
      addResult: vi.fn(),
      resume: () => undefined,
      respondToApproval: async () => undefined,
    } as unknown as ExecuteCodeToolProps;
    await act(async () => void render(<Card {...props} />));
    expect(run).toHaveBeenCalledTimes(1);
    expect(statusWord()).toHaveTextContent("Starting Python…");
    expect(clock()).toBeNull();
    // Pyodide takes its time to load: none of it is the program's.
    act(() => vi.advanceTimersByTime(12_700));
    expect(clock()).toBeNull();
    act(() => started(Date.now()));
    expect(statusWord()).toHaveTextContent("Running…");
    expect(clock()).toHaveTextContent(/^0 s \/ 60 s$/);
    act(() => vi.advanceTimersByTime(2_000));
    expect(clock()).toHaveTextContent(/^2 s \/ 60 s$/);
    await act(async () =>
      finish({
        status: "completed",
        stdout: "1\n",
        stderr: "",
        exitCode: 0,
        signal: null,
        wallTimeMs: 2,
        truncated: { stdout: 0, stderr: 0 },
      }),
    );
  });
});
