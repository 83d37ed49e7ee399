import { describe, expect, it } from "vitest";
import { deriveExecuteCodeView, fromAISDKToolPart, type ExecuteCodeCallState } from "../src/view";
import { windowOutput } from "../src/view/output-window";
import { readStreamingCode } from "../src/view/streaming-args";
import { programTitle } from "../src/view/program-title";
import { pythonException } from "../src/view/python-exception";
import { findProgramFrames } from "../src/view/traceback";
import { call, completed, primesCode, running, tracebackStderr } from "../stories/fixtures";

const phase = (state: ExecuteCodeCallState) => deriveExecuteCodeView(state).phase;

describe("deriveExecuteCodeView: phases", () => {
  it("is writing while the arguments stream, and shows the code so far", () => {
    const view = deriveExecuteCodeView({ status: running, args: {}, argsText: '{"code":"print(\\"hi' });
    expect(view.phase).toBe("writing");
    expect(view.code).toBe('print("hi');
    expect(view.codeComplete).toBe(false);
    expect(phase({ status: running, args: {}, argsText: "" })).toBe("writing");
  });

  it("is running once the arguments are complete and no result has come", () => {
    const view = deriveExecuteCodeView(call(primesCode, { status: running }));
    expect(view.phase).toBe("running");
    expect(view.code).toBe(primesCode);
    expect(view.codeComplete).toBe(true);
  });

  it("accepts args without argsText", () => {
    expect(phase({ status: running, args: { code: "1" } })).toBe("running");
  });

  it("succeeds on exit 0 and fails on a non-zero exit or a signal", () => {
    const ok = deriveExecuteCodeView(call("print(1)", { result: completed({ stdout: "1\n" }) }));
    expect(ok.phase).toBe("succeeded");
    expect(ok.output).toEqual({ stdout: "1\n", stderr: "", truncated: { stdout: 0, stderr: 0 } });
    expect(ok.exit).toEqual({ code: 0, signal: null });
    expect(phase(call("x", { result: completed({ exitCode: 3 }) }))).toBe("failed");
    expect(phase(call("x", { result: completed({ exitCode: null, signal: "SIGKILL" }) }))).toBe("failed");
  });

  it("reads an empty signal as none, so exit 0 succeeds and the header and the phase agree", () => {
    const view = deriveExecuteCodeView(call("x", { result: completed({ exitCode: 0, signal: "" }) }));
    expect(view.phase).toBe("succeeded");
    expect(view.exit).toEqual({ code: 0, signal: null });
  });

  it("times out with the limit and the partial output", () => {
    const view = deriveExecuteCodeView(
      call("while True: print(1)", {
        result: { timedOut: true, timeoutMs: 5000, stdout: "1\n1\n" },
      }),
    );
    expect(view.phase).toBe("timed-out");
    expect(view.timeoutMs).toBe(5000);
    expect(view.output?.stdout).toBe("1\n1\n");
  });

  it("is busy with the retry delay", () => {
    const view = deriveExecuteCodeView(call("x", { result: { status: "busy", retryAfterMs: 7000, message: "" } }));
    expect(view.phase).toBe("busy");
    expect(view.retryAfterMs).toBe(7000);
  });

  it("turns a tool error and an isError result into the error phase with the message", () => {
    const own = deriveExecuteCodeView(
      call("x", { result: { status: "error", code: "sandbox_unavailable", message: "down" } }),
    );
    expect(own.phase).toBe("error");
    expect(own.error).toEqual({ code: "sandbox_unavailable", message: "down" });
    const runtime = deriveExecuteCodeView(call("x", { isError: true, result: { error: "fetch failed" } }));
    expect(runtime.error?.message).toBe("fetch failed");
    const plainText = deriveExecuteCodeView(call("x", { isError: true, result: "boom" }));
    expect(plainText.error?.message).toBe("boom");
  });

  it("is running, with the output so far, while a streaming run sends its output ahead of the result", () => {
    const live = call("x", {
      result: { status: "running", stdout: "tick 0\n", stderr: "", truncated: { stdout: 0, stderr: 0 } },
    });
    const view = deriveExecuteCodeView(live);
    expect(view.phase).toBe("running");
    expect(view.output).toEqual({ stdout: "tick 0\n", stderr: "", truncated: { stdout: 0, stderr: 0 } });
    // The chat stopped while the output streamed: the run never finished.
    expect(phase({ ...live, status: { type: "incomplete", reason: "cancelled" } })).toBe("cancelled");
  });

  it("keeps an unrecognised result raw, in a phase of its own: the program may have run", () => {
    const view = deriveExecuteCodeView(call("x", { result: { answer: 42 } }));
    expect(view.phase).toBe("unrecognised");
    expect(view.error).toEqual({ code: "unrecognised_result", message: "", raw: { answer: 42 } });
  });

  it("awaits approval, then runs once approved", () => {
    const waiting = call("x", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } });
    expect(phase(waiting)).toBe("awaiting-approval");
    expect(phase({ ...waiting, status: running, approval: { id: "a", approved: true } })).toBe("running");
    expect(phase({ ...waiting, status: complete, approval: { id: "a", approved: true }, result: completed({}) })).toBe(
      "succeeded",
    );
  });

  it("is denied with the reason, even though runtimes attach an error result", () => {
    const view = deriveExecuteCodeView(
      call("x", {
        approval: { id: "a", approved: false, reason: "not now" },
        isError: true,
        result: { error: "not now" },
      }),
    );
    expect(view.phase).toBe("denied");
    expect(view.denial).toEqual({ reason: "not now", expired: false });
    expect(view.output).toBeNull();
  });

  it('reads a denial with the reason "expired" as an expired approval', () => {
    const view = deriveExecuteCodeView(
      call("x", {
        approval: { id: "a", approved: false, reason: "expired" },
        isError: true,
        result: { error: "expired" },
      }),
    );
    expect(view.phase).toBe("denied");
    expect(view.denial).toEqual({ reason: null, expired: true });
  });

  it("reads the server's approval_expired result as an expired approval", () => {
    const view = deriveExecuteCodeView(
      call("x", {
        approval: { id: "a", approved: true },
        result: { status: "error", code: "approval_expired", message: "late" },
      }),
    );
    expect(view.phase).toBe("denied");
    expect(view.denial).toEqual({ reason: null, expired: true });
  });

  it("says when an approval expired", () => {
    const view = deriveExecuteCodeView(call("x", { approval: { id: "a", resolution: "expired" } }));
    expect(view.phase).toBe("denied");
    expect(view.denial).toEqual({ reason: null, expired: true });
    expect(phase(call("x", { approval: { id: "a", resolution: "cancelled" } }))).toBe("cancelled");
  });

  it("is cancelled when the run stopped early, and error when it failed", () => {
    expect(phase(call("x", { status: { type: "incomplete", reason: "cancelled" } }))).toBe("cancelled");
    expect(phase(call("x", { status: { type: "incomplete", reason: "length" } }))).toBe("cancelled");
    const failed = deriveExecuteCodeView(
      call("x", { status: { type: "incomplete", reason: "error", error: new Error("network lost") } }),
    );
    expect(failed.phase).toBe("error");
    expect(failed.error?.message).toBe("network lost");
  });

  it("is cancelled when the message completed without a result", () => {
    const view = deriveExecuteCodeView(call("x", { status: complete }));
    expect(view.phase).toBe("cancelled");
    expect(view.cancelReason).toBe("no-result");
  });

  it("awaits the client when the browser runs the code and the runtime asks it for the result", () => {
    const waiting = call("x", { status: { type: "requires-action", reason: "tool-calls" }, execution: "client" });
    expect(phase(waiting)).toBe("awaiting-client");
  });

  it("is cancelled when a server-run call was stopped before its result (runtimes report it as waiting)", () => {
    const stopped = deriveExecuteCodeView(call("x", { status: { type: "requires-action", reason: "tool-calls" } }));
    expect(stopped.phase).toBe("cancelled");
    expect(stopped.cancelReason).toBe("stopped");
    expect(phase({ status: { type: "requires-action", reason: "tool-calls" }, args: {}, argsText: '{"code":"x' })).toBe(
      "cancelled",
    );
  });

  it("is skipped, not an error, when a new message was sent over a pending call (as assistant-ui's AI SDK runtime marks it)", () => {
    const part = {
      type: "tool-execute_code",
      toolCallId: "c",
      state: "output-error",
      input: { code: "print(1)" },
      errorText: "User cancelled tool call by sending a new message.",
    } as const;
    expect(phase(fromAISDKToolPart(part))).toBe("skipped");
    expect(
      phase(call("x", { result: { error: "User cancelled tool call by sending a new message." }, isError: true })),
    ).toBe("skipped");
    // Any other tool error is still an error.
    expect(phase(call("x", { result: { error: "The tool failed." }, isError: true }))).toBe("error");
  });

  it("walks a whole run: writing, running, succeeded", () => {
    const code = "print(6 * 7)";
    const full = JSON.stringify({ code });
    const seen = [];
    for (let i = 1; i < full.length; i++) {
      seen.push(phase({ status: running, args: {}, argsText: full.slice(0, i) }));
    }
    seen.push(phase({ status: running, args: { code }, argsText: full }));
    seen.push(phase({ status: complete, args: { code }, argsText: full, result: completed({ stdout: "42\n" }) }));
    expect([...new Set(seen)]).toEqual(["writing", "running", "succeeded"]);
  });
});

const complete = { type: "complete" } as const;

describe("programTitle: what a card is titled after", () => {
  it("is the model's title, else the program's first comment, never a line of code", () => {
    expect(programTitle("# Primes below 50\nprint([p for p in range(50)])")).toBe("Primes below 50");
    expect(programTitle("import math\n# the circle's area\nprint(math.pi)")).toBe("the circle's area");
    expect(programTitle("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n## Squares\n")).toBe("Squares");
    expect(programTitle("n = 0\nwhile n < 3:\n    n += 1")).toBeNull();
    expect(programTitle("# a comment\nx = 1", "Count to three")).toBe("Count to three");
    // On one line, whatever the model put in it; an empty one is none.
    expect(programTitle("x = 1", "Mean\nper\tgroup ")).toBe("Mean per group");
    expect(programTitle("# Squares", "  ")).toBe("Squares");
  });

  it("is nothing before there is code, and never longer than 80 characters", () => {
    expect(programTitle("")).toBeNull();
    expect(programTitle("  \n#\n")).toBeNull();
    expect(programTitle(`# ${"a".repeat(200)}`)).toHaveLength(80);
    expect(programTitle("x", "b".repeat(200))).toHaveLength(80);
  });
});

describe("the card's title from the tool input", () => {
  it("shows the model's title as it streams, before the program has come", () => {
    const streaming = { status: { type: "running" } as const, argsText: '{"title":"Mean score per gr' };
    expect(deriveExecuteCodeView(streaming).title).toBe("Mean score per gr");
    const both = { ...streaming, argsText: '{"title":"Mean score","code":"# load\\nimport pan' };
    expect(deriveExecuteCodeView(both)).toMatchObject({ title: "Mean score", code: "# load\nimport pan" });
    const done = { status: complete, args: { title: "Squares", code: "print(1)" } };
    expect(deriveExecuteCodeView(done).title).toBe("Squares");
    expect(deriveExecuteCodeView({ status: complete, args: { code: "x = 1" } }).title).toBeNull();
  });
});

describe("pythonException: the error a failed run leads with", () => {
  it("is the line a traceback ends with, dotted names and bare names included", () => {
    expect(pythonException(tracebackStderr)).toBe("ZeroDivisionError: division by zero");
    expect(
      pythonException("  File \"<program>\", line 1\n    print(1\n         ^\nSyntaxError: '(' was never closed\n"),
    ).toBe("SyntaxError: '(' was never closed");
    expect(
      pythonException("Traceback (most recent call last):\n  ...\nnumpy.linalg.LinAlgError: Singular matrix\n"),
    ).toBe("numpy.linalg.LinAlgError: Singular matrix");
    expect(pythonException("Traceback (most recent call last):\n  ...\nMemoryError\n")).toBe("MemoryError");
    expect(pythonException("Traceback (most recent call last):\n  ...\nKeyboardInterrupt\n")).toBe("KeyboardInterrupt");
  });

  it("is nothing for stderr that does not end in an exception", () => {
    expect(pythonException("")).toBeNull();
    expect(pythonException("warning: the input was empty\n")).toBeNull();
    expect(pythonException("Error: not found\n")).toBeNull();
  });

  it("a failed run's view leads with it; a run that exits 1 without one has none", () => {
    expect(
      deriveExecuteCodeView(call("1/0", { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })).exception,
    ).toBe("ZeroDivisionError: division by zero");
    expect(
      deriveExecuteCodeView(call("exit(1)", { result: completed({ stderr: "bad input\n", exitCode: 1 }) })).exception,
    ).toBeNull();
    expect(
      deriveExecuteCodeView(call("exit(1)", { result: completed({ stderr: "bad input\n", exitCode: 1 }) })).errorLine,
    ).toBeNull();
    // The innermost frame in the program is the line it raised on.
    const program =
      "def mean(values):\n    return sum(values) / len(values)\nscores = []\nprint(1)\nprint(2)\nprint(mean(scores))";
    expect(
      deriveExecuteCodeView(call(program, { result: completed({ stderr: tracebackStderr, exitCode: 1 }) })).errorLine,
    ).toBe(2);
    expect(
      deriveExecuteCodeView(call("x", { result: completed({ stderr: tracebackStderr, exitCode: 0 }) })).exception,
    ).toBeNull();
  });
});

describe("readStreamingCode", () => {
  it("decodes escapes and leaves out an escape cut in half", () => {
    expect(readStreamingCode('{"code":"a\\nb')).toBe("a\nb");
    expect(readStreamingCode('{"code":"a\\')).toBe("a");
    expect(readStreamingCode('{"code":"caf\\u00')).toBe("caf");
    expect(readStreamingCode('{"code":"caf\\u00e9"}')).toBe("café");
    expect(readStreamingCode('{"code":"x = \\"q\\"", "other": 1}')).toBe('x = "q"');
  });

  it("returns null until the code value starts", () => {
    expect(readStreamingCode("")).toBeNull();
    expect(readStreamingCode('{"co')).toBeNull();
    expect(readStreamingCode('{"code":')).toBeNull();
    expect(readStreamingCode('{"code":"')).toBe("");
  });
});

describe("findProgramFrames", () => {
  it("links frames in the program and skips library frames and impossible lines", () => {
    const stderr = [
      "Traceback (most recent call last):",
      '  File "<program>", line 6, in <module>',
      '  File "/usr/lib/python3.12/statistics.py", line 430, in mean',
      '  File "<program>", line 99, in f',
      "ValueError: bad",
    ].join("\n");
    expect(findProgramFrames(stderr, 10)).toEqual([{ stderrLine: 1, programLine: 6 }]);
    expect(findProgramFrames(tracebackStderr, 6).map((f) => f.programLine)).toEqual([6, 2]);
  });

  it("takes the line number after the file's name, never one inside it", () => {
    expect(findProgramFrames('  File "line 99", line 2, in <module>', 120)).toEqual([
      { stderrLine: 0, programLine: 2 },
    ]);
  });

  it("reads colourised tracebacks and syntax errors", () => {
    expect(findProgramFrames('  File \x1b[35m"main.py"\x1b[0m, line \x1b[35m3\x1b[0m', 5)).toEqual([
      { stderrLine: 0, programLine: 3 },
    ]);
    expect(findProgramFrames('  File "<string>", line 1\n    print(\n         ^\nSyntaxError: x', 1)).toHaveLength(1);
  });
});

describe("windowOutput", () => {
  it("keeps short output whole", () => {
    expect(windowOutput("a\nb")).toEqual({ kind: "whole", text: "a\nb" });
  });

  it("keeps the head and the tail of many lines and counts what is hidden", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `l${i}`).join("\n");
    const shown = windowOutput(text);
    expect(shown.kind).toBe("cut");
    if (shown.kind !== "cut") return;
    expect(shown.head.split("\n")).toHaveLength(200);
    expect(shown.tail.split("\n")).toHaveLength(60);
    expect(shown.hiddenLines).toBe(740);
    expect(shown.tail.endsWith("l999")).toBe(true);
  });

  it("cuts one huge line by characters", () => {
    const shown = windowOutput("x".repeat(1_000_000));
    expect(shown.kind).toBe("cut");
    if (shown.kind !== "cut") return;
    expect(shown.head.length + shown.tail.length).toBe(32_000);
    expect(shown.hiddenChars).toBe(968_000);
  });
});

describe("fromAISDKToolPart", () => {
  const input = { code: "print(1)" };
  it.each([
    [{ state: "input-streaming", input: { code: "pri" } }, "writing"],
    [{ state: "input-available", input }, "running"],
    [{ state: "approval-requested", input, approval: { id: "a" } }, "awaiting-approval"],
    [{ state: "approval-responded", input, approval: { id: "a", approved: true } }, "running"],
    [{ state: "output-available", input, output: { stdout: "1\n", stderr: "", exitCode: 0 } }, "succeeded"],
    [{ state: "output-error", input, errorText: "sandbox down" }, "error"],
    [{ state: "output-denied", input, approval: { id: "a", approved: false, reason: "no" } }, "denied"],
  ] as const)("maps %o to the %s phase", (part, expected) => {
    expect(phase(fromAISDKToolPart(part))).toBe(expected);
  });
});

describe("ansiStateAt", () => {
  it("gives the colours in force at a point, from the last reset on", async () => {
    const { ansiStateAt } = await import("../src/view/ansi-state");
    const text = "\x1b[1mbold\x1b[0m plain \x1b[31mred \x1b[4mred underlined|rest";
    expect(ansiStateAt(text, text.indexOf("|"))).toBe("\x1b[31m\x1b[4m");
    expect(ansiStateAt(text, text.indexOf("plain"))).toBe("");
    expect(ansiStateAt("no colour at all", 5)).toBe("");
    // A reset that sets colours at once, and the short reset.
    const mixed = "\x1b[1mA\x1b[0;32mB\x1b[4mC|\x1b[mD|";
    expect(ansiStateAt(mixed, mixed.indexOf("|"))).toBe("\x1b[0;32m\x1b[4m");
    expect(ansiStateAt(mixed, mixed.lastIndexOf("|"))).toBe("");
    // Only a whole colour reset counts: not a cursor move that starts alike, nor a reset cut in half at the point.
    const moved = "\x1b[31mred\x1b[0;0Hstill red|";
    expect(ansiStateAt(moved, moved.indexOf("|"))).toBe("\x1b[31m");
    const halfReset = "\x1b[31mred\x1b[0;32m";
    expect(ansiStateAt(halfReset, halfReset.length - 3)).toBe("\x1b[31m");
  });

  it("reads a megabyte of coloured lines back only to the last reset", async () => {
    const { ansiStateAt } = await import("../src/view/ansi-state");
    const lines = Array.from({ length: 20_000 }, (_, i) => (i % 10 ? `line ${i}\n` : `\x1b[32mline ${i}\x1b[0m\n`));
    const text = `${lines.join("")}\x1b[1;34mstill blue|`;
    expect(ansiStateAt(text, text.indexOf("|"))).toBe("\x1b[1;34m");
    expect(ansiStateAt(text, text.length - 100)).toBe("");
  });
});

describe("hasOverwrittenText", () => {
  /** The rule as the card states it: on a line, a part with text before a part with anything in it. */
  const byParts = (text: string) =>
    text
      .replace(/\r\n/g, "\n")
      .split("\n")
      .some((line) => {
        const parts = line.split("\r");
        return parts.some((part, k) => part.trim() !== "" && parts.slice(k + 1).some((later) => later.length > 0));
      });

  it("says what a terminal hid, for every mix of text, spaces, carriage returns and line breaks", async () => {
    const { hasOverwrittenText } = await import("../src/view/carriage-returns");
    expect(hasOverwrittenText("abc\rHIDDEN xyz\n")).toBe(true);
    expect(hasOverwrittenText("line\r\nnext\r\n")).toBe(false);
    expect(hasOverwrittenText("   \rprogress 1%\n")).toBe(false);
    const alphabet = ["a", " ", "\r", "\n"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: next() % 12 }, () => alphabet[next() % 4]).join("");
      expect(hasOverwrittenText(text), JSON.stringify(text)).toBe(byParts(text));
    }
  });
});
