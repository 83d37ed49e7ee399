import type { ExecuteCodeCallState, ExecuteCodeCardProps, ExecuteCodePhase, ExecuteCodeResult } from "../src";

/** Tool-call states for every phase and edge case, shared by the stories and the unit tests. */

export const running = { type: "running" } as const;
export const complete = { type: "complete" } as const;

export function call(code: string, extra: Partial<ExecuteCodeCallState> = {}): ExecuteCodeCallState {
  return {
    status: complete,
    args: { code },
    argsText: JSON.stringify({ code }),
    ...extra,
  };
}

export function completed(partial: Partial<Extract<ExecuteCodeResult, { status: "completed" }>>): ExecuteCodeResult {
  return {
    status: "completed",
    stdout: "",
    stderr: "",
    exitCode: 0,
    signal: null,
    wallTimeMs: 184,
    truncated: { stdout: 0, stderr: 0 },
    ...partial,
  };
}

export const primesCode = `def is_prime(n):
    if n < 2:
        return False
    for d in range(2, int(n ** 0.5) + 1):
        if n % d == 0:
            return False
    return True

primes = [n for n in range(2, 50) if is_prime(n)]
print(primes)
print("count:", len(primes))`;

export const primesOutput = "[2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]\ncount: 15\n";

export const tracebackCode = `def mean(values):
    return sum(values) / len(values)

scores = []
print("scores:", scores)
print(mean(scores))`;

export const tracebackStderr = `Traceback (most recent call last):
  File "<program>", line 6, in <module>
    print(mean(scores))
          ^^^^^^^^^^^^
  File "<program>", line 2, in mean
    return sum(values) / len(values)
           ~~~~~~~~~~~~^~~~~~~~~~~~~
ZeroDivisionError: division by zero
`;

/** What the sandbox recorded of tracebackCode's failure (contract/failure.ts), as its run_program records it. */
export const tracebackFailure = {
  type: "ZeroDivisionError",
  message: "division by zero",
  function: "mean",
  line: 2,
  endLine: 2,
  column: 11,
  endColumn: 36,
  values: [{ name: "values", value: "[]", type: "list", length: 0 }],
  frames: [
    { file: "<program>", line: 6, function: "<module>", own: true },
    { file: "<program>", line: 2, function: "mean", own: true },
  ],
  explanation: { kind: "zero-division", text: "len(values)" },
};

/**
 * A program that reads as another one: a carriage return (line 2 is code,
 * not part of the comment), a form feed (line 5 runs at the top level) and
 * bidi controls (line 6's string reads as a comment).
 */
export const disguisedCode =
  'answer = 42  # check the answer\rimport os; print("HIDDEN")\n' +
  'if os.getenv("MODE") == "teacher":\n' +
  '    print("teacher mode")\n' +
  '    \fprint("runs for everyone")\n' +
  'if answer != "42\u202E \u2066# admins only\u2069 \u2066":\n' +
  "    print(answer)\n";

export const writingArgsText = '{"code":"def is_prime(n):\\n    if n < 2:\\n        return Fal';

export const ansiOutput =
  "\x1b[1mTest report\x1b[0m\n" +
  "\x1b[32m✔ test_addition passed\x1b[0m\n" +
  "\x1b[31m✘ test_division failed\x1b[0m\n" +
  "\x1b[33mwarning:\x1b[0m \x1b[4mslow test\x1b[0m (\x1b[38;5;208m1.2 s\x1b[0m)\n" +
  "\x1b[38;2;120;80;200mtruecolor line\x1b[0m\x1b[2K\n" +
  "progress 10%\rprogress 50%\rprogress 100%\n";

export const htmlOutput =
  '<script>window.__pwned = true</script>\n<img src=x onerror="window.__pwned = true">\n<b>not bold</b> &amp; <a href="javascript:alert(1)">link</a>\n';

export const unicodeOutput = "π ≈ 3.14159\n∑ 1/n² = π²/6\nGrüße, 世界! 🐍\nالعربية\n";

/** A file name that a right-to-left override makes read as a PDF, and a zero-width space in a word. */
export const bidiOutput = "saved invoice_\u202Efdp.exe\nadmin\u200Bistrator\n";

export function longOutput(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `line ${i + 1}: ${"x".repeat(i % 40)}`).join("\n");
}

/** A realistic program of exactly `length` characters. */
export function largeProgram(length = 20_000): string {
  let code = "";
  for (let i = 0; code.length < length; i++) {
    code += `def step_${i}(values, factor=${i}):\n    """Scale every value by ${i}."""\n    return [v * factor + ${i} for v in values if v % 3 != ${i % 3}]  # ${"·".repeat(i % 7)}\n\n`;
  }
  return code.slice(0, length);
}

/** A program that draws a figure and writes a CSV, as the demo's "Plot the squares" prompt runs it. */
export const plotCode = `import csv
import matplotlib.pyplot as plt

n = list(range(1, 11))
squares = [k * k for k in n]
with open("squares.csv", "w", newline="") as f:
    csv.writer(f).writerows(zip(n, squares))
plt.plot(n, squares, marker="o")
plt.title("Squares")
plt.xlabel("n")
plt.ylabel("n squared")
plt.show()
print("sum of squares:", sum(squares))`;

export const squaresFigure = {
  name: "figure-1.png",
  mediaType: "image/png",
  size: 7057,
  kind: "image",
  alt: "Squares, x: n, y: n squared",
  ref: { sessionId: "run-1", fileId: "figure-1" },
} as const;

export const squaresCsv = {
  name: "squares.csv",
  mediaType: "text/csv",
  size: 61,
  kind: "file",
  ref: { sessionId: "run-1", fileId: "csv-1" },
} as const;

/** A call whose model gave its program a title, as the tool's `title` field asks: what the card's header shows. */
export function titled(title: string, code: string, extra: Partial<ExecuteCodeCallState> = {}): ExecuteCodeCallState {
  return call(code, { args: { title, code }, argsText: JSON.stringify({ title, code }), ...extra });
}

/** One state of each phase, as the gallery shows it and the tests read it; titled as a tutor's model titles them. */
export const galleryStates: Record<ExecuteCodePhase, ExecuteCodeCardProps> = {
  writing: { status: running, args: {}, argsText: writingArgsText },
  "awaiting-approval": {
    ...titled("Sum of the numbers from 1 to 100", "print(sum(range(101)))", {
      status: { type: "requires-action", reason: "interrupt" },
      approval: { id: "a" },
    }),
    onApprove: () => undefined,
    onDeny: () => undefined,
  },
  running: titled("Primes below 50", primesCode, { status: running }),
  succeeded: titled("Sum of the numbers from 1 to 100", "print(sum(range(101)))", {
    result: completed({ stdout: "5050\n", wallTimeMs: 12 }),
  }),
  failed: titled("The mean of the class's exam scores, with no scores yet", tracebackCode, {
    result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1, failure: tracebackFailure }),
  }),
  "timed-out": titled("Count up, forever", "while True: pass", {
    result: {
      status: "timeout",
      timeoutMs: 5000,
      stdout: "",
      stderr: "",
      wallTimeMs: 5000,
      truncated: { stdout: 0, stderr: 0 },
    },
  }),
  busy: titled("Check the answer", "print(1)", { result: { status: "busy", retryAfterMs: 12_000, message: "" } }),
  denied: titled("Check the answer", "print(1)", {
    approval: { id: "a", approved: false, reason: "Try it yourself first." },
  }),
  cancelled: titled("Check the answer", "print(1)", { status: { type: "incomplete", reason: "cancelled" } }),
  error: titled("Check the answer", "print(1)", {
    result: { status: "error", code: "sandbox_unavailable", message: "The sandbox is down." },
  }),
  unrecognised: titled("Check the answer", "print(1)", { result: { answer: 42 } }),
  "awaiting-client": titled("Check the answer", "print(1)", {
    status: { type: "requires-action", reason: "tool-calls" },
    execution: "client",
  }),
  skipped: titled("Check the answer", "print(1)", {
    result: { error: "User cancelled tool call by sending a new message." },
    isError: true,
  }),
};
