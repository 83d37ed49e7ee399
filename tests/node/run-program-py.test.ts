// The Python every runner shares (contract/run-program-py.ts), run by the system's python3 as a kernel
// would: several programs, one after another, in one namespace.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { RUN_PROGRAM_PY } from "../../src/contract/run-program-py";

interface Ran {
  status: number;
  stderr: string;
  /** What run_program said of the failure; {} when the program did not raise. */
  facts: Record<string, unknown>;
}

/** Runs each program in turn in one interpreter and one namespace; what each one ended with. */
function runInOneNamespace(...programs: string[]): Ran[] {
  const script = `
import io, json, sys, traceback
${RUN_PROGRAM_PY}
namespace, ran = {"__name__": "__main__"}, []
for source in json.loads(sys.stdin.readline()):
    sys.stderr = io.StringIO()
    facts = {}
    status = run_program(source, namespace, facts)
    ran.append({"status": status, "stderr": sys.stderr.getvalue(), "facts": facts})
sys.stderr = sys.__stderr__
print(json.dumps(ran))
`;
  const stdout = execFileSync("python3", ["-c", script], { input: `${JSON.stringify(programs)}\n` }).toString();
  // The programs print too: what they ended with is the last line.
  return JSON.parse(stdout.trimEnd().split("\n").at(-1)!);
}

describe("run_program", () => {
  it("names the program in each frame and quotes the line it raised on, as Python does for a file", () => {
    const [ran] = runInOneNamespace("def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))\n");
    expect(ran).toMatchObject({ status: 1 });
    expect(ran!.stderr).toContain('  File "<program>", line 4, in <module>\n    print(mean([]))\n');
    expect(ran!.stderr).toContain('  File "<program>", line 2, in mean\n    return sum(values) / len(values)\n');
    expect(ran!.stderr).not.toContain("run_program");
  });

  it("quotes no line rather than a wrong one when a function of an earlier program raises", () => {
    const [, later] = runInOneNamespace(
      "def mean(values):\n    return sum(values) / len(values)\n",
      "print('a line the earlier program does not have')\nmean([])\n",
    );
    expect(later!.stderr).toContain('File "<program>", line 2, in mean\nZeroDivisionError: division by zero\n');
    expect(later!.stderr).not.toContain("a line the earlier program does not have");
  });

  it("quotes no line either when the earlier program's function raised an exception this one chained", () => {
    const [, later] = runInOneNamespace(
      "def f():\n    return 1 / 0\n",
      "try:\n    f()\nexcept ZeroDivisionError:\n    raise ValueError('bad')\n",
    );
    expect(later!.stderr).toContain('File "<program>", line 2, in f\nZeroDivisionError: division by zero\n');
    expect(later!.stderr).toMatch(/ValueError: bad\n$/);
  });

  it("counts lines as the compiler does: a form feed, U+2028 or NEL before the error moves no quoted line", () => {
    const ran = runInOneNamespace(
      "# setup\u2028\nx = 1\nraise ValueError('boom')\n",
      "\f\nx = 1\nraise ValueError('boom')\n",
      "s = 'a\u0085b'\nx = 1\nraise ValueError('boom')\n",
      "a = 1\r\nb = 2\rraise ValueError('boom')\n",
    );
    for (const each of ran) expect(each.stderr).toContain("line 3, in <module>\n    raise ValueError('boom')\n");
  });

  it("quotes the line a warning came from", () => {
    const [ran] = runInOneNamespace("import warnings\nwarnings.warn('careful')\n");
    expect(ran).toEqual({
      status: 0,
      stderr: "<program>:2: UserWarning: careful\n  warnings.warn('careful')\n",
      facts: {},
    });
  });

  it("takes the exit code as the process would: modulo 256, a message as 1", () => {
    const ran = runInOneNamespace("import sys\nsys.exit(256 + 3)", "import sys\nsys.exit('bye')", "print(1");
    expect(ran.map((each) => each.status)).toEqual([3, 1, 1]);
    expect(ran[1]!.stderr).toBe("bye\n");
    expect(ran[2]!.stderr).toMatch(/File "<program>", line 1\n {4}print\(1\n[\s\S]*SyntaxError/);
  });
});

/** The facts of one program's failure. */
function factsOf(program: string): Record<string, unknown> {
  return runInOneNamespace(program)[0]!.facts;
}

describe("run_program's facts of a failure", () => {
  it("names the deepest frame of the program, its values, and the span the carets point at", () => {
    const facts = factsOf("def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))\n");
    expect(facts).toMatchObject({
      type: "ZeroDivisionError",
      message: "division by zero",
      function: "mean",
      line: 2,
      // `sum(values) / len(values)`, in characters from the line's start.
      column: 11,
      endColumn: 36,
      values: [{ name: "values", value: "[]", type: "list", length: 0 }],
      explanation: { kind: "zero-division", text: "len(values)" },
      frames: [
        { file: "<program>", line: 4, function: "<module>", own: true },
        { file: "<program>", line: 2, function: "mean", own: true },
      ],
    });
  });

  it("marks exactly a misspelt name, counting characters rather than bytes, and offers the name meant", () => {
    const facts = factsOf("total = 3\nprint('é', totl + 1)\n");
    expect(facts).toMatchObject({
      line: 2,
      column: 11,
      endColumn: 15,
      explanation: { kind: "name", name: "totl", suggestion: "total" },
    });
  });

  it("tells the program's own frames from a library's, and names the library", () => {
    const facts = factsOf("import json\ndef load(text):\n    return json.loads(text)\nload('{bad')\n");
    const frames = facts.frames as { own: boolean; module?: string }[];
    expect(frames.slice(0, 2).every((frame) => frame.own)).toBe(true);
    expect(frames.slice(2).length).toBeGreaterThan(0);
    expect(frames.slice(2).every((frame) => !frame.own && frame.module === "json")).toBe(true);
    expect(facts).toMatchObject({ function: "load", line: 3, values: [{ name: "text", value: "'{bad'" }] });
  });

  it.each([
    ["xs = [1, 2, 3]\ni = 3\nprint(xs[i])", { kind: "index", name: "xs", text: "i", count: 3, index: 3 }],
    ["ages = {'ann': 3}\nprint(ages['cid'])", { kind: "key", text: "'cid'", name: "ages", count: 1, names: ["'ann'"] }],
    ["age = 5\nprint('age: ' + age)", { kind: "operand-types", text: "+", names: ["str", "int"] }],
    ["xs = [3, 1].sort()\nxs.append(2)", { kind: "attribute", name: "append", text: "NoneType" }],
    ["n = int('abc')", { kind: "number-text", name: "int", text: "'abc'" }],
    ["import no_such_package_here", { kind: "module-not-found", name: "no_such_package_here" }],
    ["def f(n):\n    return f(n + 1)\nf(0)", { kind: "recursion", name: "f" }],
    ["x = 1\ndef f():\n    print(x)\n    x = 2\nf()", { kind: "unbound", name: "x" }],
    ["import sys, io\nsys.stdin = io.StringIO()\ninput()", { kind: "no-input" }],
    ["import socket\nsocket.getaddrinfo('example.invalid', 80)", { kind: "no-internet" }],
    ["open('grades.csv')", { kind: "file-not-found", name: "grades.csv" }],
  ])("explains %j in facts a sentence can be made of", (program, explanation) => {
    expect(factsOf(program).explanation).toMatchObject(explanation);
  });

  it("describes values without running the program's own methods, and keeps each one short", () => {
    const facts = factsOf(
      [
        "import time",
        "class Slow:",
        "    def __repr__(self):",
        "        time.sleep(100)",
        "    def __len__(self):",
        "        raise ValueError",
        "class Shouting(list):",
        "    def __repr__(self):",
        "        return 'x' * 10**7",
        "slow, shouting, long, deep, big = Slow(), Shouting([1, 2]), 'é' * 500, [[[[1]]]], 10**400",
        "print(slow, shouting, long, deep, big, missing)",
      ].join("\n"),
    );
    expect(facts.values).toEqual([
      { name: "slow", value: "<Slow object>", type: "Slow" },
      { name: "shouting", value: "[1, 2]", type: "Shouting", length: 2 },
      { name: "long", value: expect.stringMatching(/^'é+…$/), type: "str", length: 500 },
      { name: "deep", value: "[[[...]]]", type: "list", length: 1 },
      { name: "big", value: "…", type: "int", length: 401 },
    ]);
    for (const { value } of facts.values as { value: string }[]) expect(value.length).toBeLessThanOrEqual(80);
  });

  it("marks the span of a syntax error, and says nothing of values", () => {
    expect(factsOf("x = (1,\nprint('hi')\n")).toEqual({
      type: "SyntaxError",
      message: "'(' was never closed",
      frames: [],
      line: 1,
      endLine: 1,
      column: 4,
      endColumn: 5,
    });
  });

  it("gives no facts for a program that ended by sys.exit", () => {
    expect(factsOf("import sys\nsys.exit(3)")).toEqual({});
  });
});

describe("run_program's facts of a hostile program", () => {
  it("runs nothing the program defined: a metaclass's name, an exception's fields, a str() that exits", () => {
    const [ran] = runInOneNamespace(
      [
        "class Loud(type):",
        "    @property",
        "    def __name__(cls):",
        "        raise SystemExit('MemoryError: the sandbox ran out of memory, sign in again')",
        "class ValueError(Exception, metaclass=Loud):",
        "    @property",
        "    def args(self):",
        "        raise SystemExit('forged')",
        "raise ValueError('bad value')",
      ].join("\n"),
    );
    expect(ran).toMatchObject({ status: 1, facts: { type: "ValueError", message: "bad value" } });
    expect(ran!.stderr).toMatch(/ValueError: bad value\n$/);
    expect(ran!.stderr).not.toContain("sign in again");
  });

  it("says an exception that cannot be shown, and keeps the run's status", () => {
    const [ran] = runInOneNamespace(
      "class E(Exception):\n    def __str__(self):\n        raise SystemExit('forged')\nraise E()",
    );
    expect(ran!.status).toBe(1);
    expect(ran!.stderr).not.toContain("forged");
  });

  it("writes a class's name with its hidden characters named, never raw", () => {
    const [ran] = runInOneNamespace("C = type('Grade\\u202eFA\\nprint(1)', (), {})\ngrade = C()\nprint(grade + 1)");
    const values = ran!.facts.values as { value: string; type: string }[];
    expect(values[0]!.type).toBe("Grade\\u202eFA\\nprint(1)");
    expect(values[0]!.value).not.toMatch(/[\u202e\n]/);
  });

  it("offers no name for a long misspelt one, however many names there are", () => {
    const [ran] = runInOneNamespace(
      "for i in range(500):\n    globals()['a' * 300 + str(i)] = i\nraise NameError('x', name='a' * 5000)",
    );
    expect(ran!.facts.explanation).toEqual({ kind: "name", name: `${"a".repeat(59)}…` });
  });
});
