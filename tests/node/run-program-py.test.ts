// The Python every runner shares (contract/run-program-py.ts), run by the system's python3 as a kernel
// would: several programs, one after another, in one namespace.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { RUN_PROGRAM_PY } from "../../src/contract/run-program-py";

interface Ran {
  status: number;
  stderr: string;
}

/** Runs each program in turn in one interpreter and one namespace; what each one ended with. */
function runInOneNamespace(...programs: string[]): Ran[] {
  const script = `
import io, json, sys, traceback
${RUN_PROGRAM_PY}
namespace, ran = {"__name__": "__main__"}, []
for source in json.loads(sys.stdin.readline()):
    sys.stderr = io.StringIO()
    status = run_program(source, namespace)
    ran.append({"status": status, "stderr": sys.stderr.getvalue()})
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
    expect(ran).toEqual({ status: 0, stderr: "<program>:2: UserWarning: careful\n  warnings.warn('careful')\n" });
  });

  it("takes the exit code as the process would: modulo 256, a message as 1", () => {
    const ran = runInOneNamespace("import sys\nsys.exit(256 + 3)", "import sys\nsys.exit('bye')", "print(1");
    expect(ran.map((each) => each.status)).toEqual([3, 1, 1]);
    expect(ran[1]!.stderr).toBe("bye\n");
    expect(ran[2]!.stderr).toMatch(/File "<program>", line 1\n {4}print\(1\n[\s\S]*SyntaxError/);
  });
});
