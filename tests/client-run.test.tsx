// The card of a call the browser runs: once per page, after Run when asked,
// and the result goes back through the runtime.
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { describe, expect, it, vi } from "vitest";
import {
  CLIENT_DENIED,
  makeExecuteCodeRenderer,
  type ExecuteCodeRunner,
  type ExecuteCodeToolProps,
} from "../src/assistant-ui";
import { RUN_STOPPED, type ExecuteCodeResult } from "../src/contract";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { slotSelector } from "../src/view/slots";

const done: ExecuteCodeResult = {
  status: "completed",
  stdout: "42\n",
  stderr: "",
  exitCode: 0,
  signal: null,
  wallTimeMs: 3,
  truncated: { stdout: 0, stderr: 0 },
};

function runner() {
  let finish!: (result: ExecuteCodeResult) => void;
  const run = vi.fn(() => new Promise<ExecuteCodeResult>((resolve) => (finish = resolve)));
  return {
    executor: { run } satisfies ExecuteCodeRunner,
    run,
    finish: (result: ExecuteCodeResult) => act(async () => finish(result)),
  };
}

const awaited = (toolCallId: string, addResult: (result: unknown) => void, result?: unknown): ExecuteCodeToolProps =>
  ({
    type: "tool-call",
    toolCallId,
    toolName: "execute_code",
    args: { code: "print(6 * 7)" },
    argsText: '{"code":"print(6 * 7)"}',
    status: result === undefined ? { type: "requires-action", reason: "tool-calls" } : { type: "complete" },
    result,
    isError: false,
    addResult,
    resume: () => undefined,
    respondToApproval: async () => undefined,
  }) as unknown as ExecuteCodeToolProps;

const phase = () => document.querySelector(EXECUTE_CODE_CARD)?.getAttribute("data-phase");

describe("a call the browser runs", () => {
  it("shows its limit beside the clock, and Stop in the card ends the program: the result says so with what it printed", async () => {
    let printed!: (stream: "stdout" | "stderr", text: string) => void;
    const run = vi.fn(
      (
        _code: string,
        options?: { signal?: AbortSignal; onOutput?: (stream: "stdout" | "stderr", text: string) => void },
      ) =>
        new Promise<ExecuteCodeResult>((_, reject) => {
          printed = options!.onOutput!;
          options!.signal!.addEventListener("abort", () =>
            reject(new DOMException("The run was stopped.", "AbortError")),
          );
        }),
    );
    const Card = makeExecuteCodeRenderer({ execution: "client", executor: { run, timeoutMs: 10_000 } });
    const addResult = vi.fn();
    const { rerender } = render(<Card {...awaited("call_stop", addResult)} />);
    await waitFor(() => expect(phase()).toBe("running"));
    expect(document.querySelector(slotSelector("timing"))).toHaveTextContent(/^\d+ s \/ 10 s$/);
    act(() => printed("stdout", "tick\n"));
    await userEvent.setup().click(screen.getByRole("button", { name: "Stop the program" }));
    await waitFor(() => expect(addResult).toHaveBeenCalledTimes(1));
    const result = addResult.mock.calls[0]![0] as { status: string; code: string; message: string };
    expect(result).toMatchObject({ status: "error", code: RUN_STOPPED });
    const fence = /\n(~~~ [0-9a-f]{14})\n/.exec(result.message)?.[1];
    expect(result.message).toBe(
      [
        "The person stopped the program before it finished.",
        "What it printed until then:",
        `stdout (as printed, between the two lines "${fence}"):`,
        fence,
        "tick",
        fence,
        "stderr: nothing",
      ].join("\n"),
    );
    rerender(<Card {...awaited("call_stop", addResult, result)} />);
    expect(phase()).toBe("cancelled");
    expect(screen.queryByRole("button", { name: "Stop the program" })).toBeNull();
  });

  it("runs once even when its card mounts twice, shows running, and adds the result", async () => {
    const { executor, run, finish } = runner();
    const Card = makeExecuteCodeRenderer({ execution: "client", executor });
    const addResult = vi.fn();
    render(
      <StrictMode>
        <Card {...awaited("call_1", addResult)} />
        <Card {...awaited("call_1", addResult)} />
      </StrictMode>,
    );
    await waitFor(() => expect(phase()).toBe("running"));
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith("print(6 * 7)", expect.objectContaining({ onOutput: expect.any(Function) }));
    await finish(done);
    expect(addResult).toHaveBeenCalledTimes(1);
    expect(addResult).toHaveBeenCalledWith(done);
  });

  it("shows the run ended, with its own time, while the result is on its way into the message", async () => {
    const { executor, finish } = runner();
    const Card = makeExecuteCodeRenderer({ execution: "client", executor });
    // The runtime has the result, but the message shows it only after a round trip (a server store, a slow network).
    const addResult = vi.fn();
    render(<Card {...awaited("call_gap", addResult)} />);
    await waitFor(() => expect(phase()).toBe("running"));
    await finish(done);
    expect(addResult).toHaveBeenCalledWith(done);
    expect(phase()).toBe("succeeded");
    expect(document.querySelector(slotSelector("timing"))).toHaveTextContent(/^3 ms$/);
    expect(document.querySelector(slotSelector("stdout"))).toHaveTextContent("42");
  });

  it("shows what the program prints while it runs in the browser", async () => {
    let print!: (text: string) => void;
    let finish!: (result: ExecuteCodeResult) => void;
    const executor: ExecuteCodeRunner = {
      run: (_code, options) =>
        new Promise<ExecuteCodeResult>((resolve) => {
          print = (text) => options?.onOutput?.("stdout", text);
          finish = resolve;
        }),
    };
    const Card = makeExecuteCodeRenderer({ execution: "client", executor });
    render(<Card {...awaited("call_live", vi.fn())} />);
    await waitFor(() => expect(phase()).toBe("running"));
    act(() => print("tick 0\n"));
    const stdout = () => document.querySelector(slotSelector("stdout"));
    await waitFor(() => expect(stdout()).toHaveTextContent("tick 0"));
    expect(phase()).toBe("running");
    act(() => print("tick 1\n"));
    await waitFor(() => expect(stdout()).toHaveTextContent("tick 1"));
    await act(async () => finish(done));
  });

  it("without an executor, only shows that the call awaits the client", () => {
    const Card = makeExecuteCodeRenderer({ execution: "client" });
    render(<Card {...awaited("call_2", vi.fn())} />);
    expect(phase()).toBe("awaiting-client");
  });

  it("asks first when told to: Run runs it, Deny sends a denial the card shows as denied", async () => {
    const { executor, run, finish } = runner();
    const Card = makeExecuteCodeRenderer({ execution: "client", executor, askBeforeRunning: () => true });
    const addResult = vi.fn();
    const { rerender } = render(<Card {...awaited("call_3", addResult)} />);
    expect(phase()).toBe("awaiting-approval");
    expect(run).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(run).toHaveBeenCalledTimes(1);
    await finish(done);
    expect(addResult).toHaveBeenCalledWith(done);

    const denied = vi.fn();
    rerender(<Card {...awaited("call_4", denied)} />);
    await waitFor(() => expect(phase()).toBe("awaiting-approval"));
    await userEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(run).toHaveBeenCalledTimes(1);
    const [result] = denied.mock.calls[0]!;
    expect(result).toMatchObject({ status: "error", code: CLIENT_DENIED });
    rerender(<Card {...awaited("call_4", denied, result)} />);
    expect(phase()).toBe("denied");
  });

  it("does not run a call that has its result already (another tab answered)", () => {
    const { executor, run } = runner();
    const Card = makeExecuteCodeRenderer({ execution: "client", executor });
    render(<Card {...awaited("call_5", vi.fn(), done)} />);
    expect(phase()).toBe("succeeded");
    expect(run).not.toHaveBeenCalled();
  });
});
