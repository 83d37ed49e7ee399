import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CappedText, keepHeadAndTail } from "../../src/contract/truncate";
import { createPyodideExecutor, type Executor, type RunOutcome } from "../../src/sandbox";

let executor: Executor;
beforeAll(() => {
  executor = createPyodideExecutor({ poolSize: 1, onWarning: () => undefined });
});
afterAll(() => executor.close());

const run = async (code: string, timeoutMs = 10_000) =>
  (await executor.run({ code, timeoutMs, signal: new AbortController().signal })) as RunOutcome;

describe("the Pyodide executor runs Python as a real interpreter would", () => {
  it("keeps stdout and stderr apart", async () => {
    const result = await run('import sys\nprint("out")\nprint("err", file=sys.stderr)\nprint("out again")');
    expect(result).toMatchObject({ stdout: "out\nout again\n", stderr: "err\n", exitCode: 0, timedOut: false });
  });

  it("maps sys.exit like the interpreter", async () => {
    expect((await run("import sys\nsys.exit(3)")).exitCode).toBe(3);
    expect((await run("import sys\nsys.exit()")).exitCode).toBe(0);
    expect(await run('import sys\nsys.exit("bye")')).toMatchObject({ exitCode: 1, stderr: "bye\n" });
    expect((await run("import sys\nsys.exit(256 + 7)")).exitCode).toBe(7);
  });

  it("prints an uncaught exception's traceback on stderr, pointing into the program, with exit 1", async () => {
    const result = await run("def f():\n    return 1 / 0\n\nf()");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      [
        "Traceback (most recent call last):",
        '  File "<program>", line 4, in <module>',
        "    f()",
        "    ~^^",
        '  File "<program>", line 2, in f',
        "    return 1 / 0",
        "           ~~^~~",
        "ZeroDivisionError: division by zero",
        "",
      ].join("\n"),
    );
  });

  it("reports a syntax error", async () => {
    const result = await run("print(");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("SyntaxError: '(' was never closed");
  });

  it("gives each run a fresh namespace", async () => {
    await run("secret = 41");
    const result = await run("print(secret)");
    expect(result.stderr).toContain("NameError: name 'secret' is not defined");
  });

  it("treats input() as end of input, and says why", async () => {
    const { stderr, failure } = await run("input()");
    expect(stderr).toMatch(/EOFError: EOF when reading a line\n$/);
    expect(failure).toMatchObject({ type: "EOFError", explanation: { kind: "no-input" } });
  });

  it("says why a program failed, with the failing frame's values, as the CPython sandbox does", async () => {
    const { failure } = await run("def mean(values):\n    return sum(values) / len(values)\nprint(mean([]))");
    expect(failure).toMatchObject({
      type: "ZeroDivisionError",
      function: "mean",
      line: 2,
      column: 11,
      endColumn: 36,
      values: [{ name: "values", value: "[]", type: "list", length: 0 }],
      explanation: { kind: "zero-division", text: "len(values)" },
    });
  });

  it("ends a run past its time limit, keeps what it printed, and runs the next program", async () => {
    const result = await run('print("started", flush=True)\nwhile True:\n    pass', 1500);
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "started\n" });
    expect(await run("print(2 + 2)")).toMatchObject({ stdout: "4\n", exitCode: 0 });
  });

  it("ends the run when the caller aborts", async () => {
    const abort = new AbortController();
    const pending = executor.run({ code: "while True: pass", timeoutMs: 10_000, signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    expect(await pending).toMatchObject({ timedOut: false, signal: "SIGKILL" });
    expect((await run("print(1)")).stdout).toBe("1\n");
  });

  it("hands each piece of output to onOutput as it is written, in order", async () => {
    const pieces: Array<[string, string]> = [];
    const result = (await executor.run({
      code: 'import sys\nfor i in range(3):\n    print("line", i)\n    print("warn", i, file=sys.stderr)',
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      onOutput: (stream, text) => pieces.push([stream, text]),
    })) as RunOutcome;
    expect(
      pieces
        .filter(([s]) => s === "stdout")
        .map(([, t]) => t)
        .join(""),
    ).toBe(result.stdout);
    expect(
      pieces
        .filter(([s]) => s === "stderr")
        .map(([, t]) => t)
        .join(""),
    ).toBe(result.stderr);
    // Line-buffered: the streams interleave as the program wrote them.
    expect(pieces.slice(0, 2)).toEqual([
      ["stdout", "line 0\n"],
      ["stderr", "warn 0\n"],
    ]);
  });

  it("keeps as much of a flood's end as of its start, as the other engines do, and passes its latest lines on live", async () => {
    const small = createPyodideExecutor({ poolSize: 1, maxOutputChars: 100_000, onWarning: () => undefined });
    try {
      const live = new CappedText(100_000);
      let seenWhileRunning = "";
      const result = (await small.run({
        // The dots after the end are writes: the interpreter passes its latest lines on at a write.
        code: "import time\nfor i in range(100_000): print(i)\nprint('the end', flush=True)\nfor _ in range(5):\n    time.sleep(0.3)\n    print('.', flush=True)",
        timeoutMs: 30_000,
        signal: new AbortController().signal,
        onOutput: (_, text, skipped) => {
          if (skipped) live.skip(skipped);
          live.add(text);
          if (!seenWhileRunning.includes("the end")) seenWhileRunning = live.text;
        },
      })) as RunOutcome;
      const printed = `${Array.from({ length: 100_000 }, (_, i) => `${i}\n`).join("")}the end\n${".\n".repeat(5)}`;
      const kept = keepHeadAndTail(printed, 100_000);
      expect(result.stdout).toBe(kept.text);
      expect(result.truncated).toEqual({
        stdout: kept.cut,
        stderr: 0,
        at: { stdout: kept.at },
        lines: { stdout: kept.cutLines },
      });
      // While it ran, the card's view went on past the cap to the program's newest lines, the gap counted.
      expect(seenWhileRunning.startsWith("0\n1\n")).toBe(true);
      expect(seenWhileRunning).toContain("99999\nthe end\n");
      expect(live.cut).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });

  it("gives back the files a program leaves in its working directory, within the caps, and none of an earlier run", async () => {
    const wrote = await run(
      [
        "import csv, os",
        "with open('squares.csv', 'w', newline='') as f:",
        "    csv.writer(f).writerows((n, n * n) for n in range(1, 4))",
        "os.makedirs('out', exist_ok=True)",
        "open('out/notes.txt', 'w').write('hello')",
        "os.symlink('/lib', 'lib-link')",
      ].join("\n"),
    );
    expect(wrote.files?.map((file) => [file.name, file.mediaType, Buffer.from(file.bytes).toString()])).toEqual([
      ["out/notes.txt", "text/plain", "hello"],
      ["squares.csv", "text/csv", "1,1\r\n2,4\r\n3,9\r\n"],
    ]);
    expect(wrote.filesCut).toBe(0);
    expect((await run("print('no files')")).files).toEqual([]);
    const many = await run("for n in range(12):\n    open(f'f{n:02}.txt', 'w').write(str(n))");
    expect(many.files).toHaveLength(10);
    expect(many.filesCut).toBe(2);
  });

  it("says how it isolates programs", () => {
    const health = executor.health!();
    expect(health).toMatchObject({ executor: "pyodide", limits: { memoryLimitMb: 768 } });
    if (process.platform === "linux") {
      expect(health.isolation).toMatchObject({ network: expect.stringMatching(/^none/), diesWithParent: true });
    }
  });
});

describe("the pool of interpreters", () => {
  it("is full again after runs, with a spare kept while one is still ready", async () => {
    const own = createPyodideExecutor({ poolSize: 2, onWarning: () => undefined });
    const pool = () => own.health!().pool as { ready: number; starting: number };
    const full = async () => {
      while (pool().ready < 2) await new Promise((resolve) => setTimeout(resolve, 25));
    };
    try {
      await full();
      const signal = new AbortController().signal;
      const first = (await own.run({ code: "print(1)", timeoutMs: 10_000, signal })) as RunOutcome;
      // One interpreter is still waiting, so the next run starts at once.
      expect(pool().ready).toBe(1);
      const second = (await own.run({ code: "print(2)", timeoutMs: 10_000, signal })) as RunOutcome;
      expect([first.stdout, second.stdout]).toEqual(["1\n", "2\n"]);
      await full();
      const pids = (own.health!().interpreters as Array<{ pid: number }>).map((i) => i.pid);
      expect(new Set(pids).size).toBe(2);
    } finally {
      await own.close();
    }
  });
});

describe("closing the executor", () => {
  it("fails runs that are still waiting for an interpreter instead of leaving them hanging", async () => {
    const own = createPyodideExecutor({ poolSize: 1, onWarning: () => undefined });
    const waiting = own.run({ code: "print(1)", timeoutMs: 10_000, signal: new AbortController().signal });
    await own.close();
    await expect(waiting).rejects.toThrow("The Python executor is closed.");
    await expect(
      own.run({ code: "print(1)", timeoutMs: 10_000, signal: new AbortController().signal }),
    ).rejects.toThrow("The Python executor is closed.");
  });
});

describe("the sandbox has no host access", () => {
  it("cannot read the host's files", async () => {
    const result = await run("print(open('/etc/passwd').read())");
    expect(result.stderr).toContain("FileNotFoundError");
    expect(result.stdout).toBe("");
  });

  it("has no js or pyodide_js module to reach the host", async () => {
    expect((await run("import js")).stderr).toContain("ModuleNotFoundError: No module named 'js'");
    expect((await run("import pyodide_js")).stderr).toContain("ModuleNotFoundError: No module named 'pyodide_js'");
  });

  it("sees none of the host's environment", async () => {
    process.env.EXECUTE_CODE_TEST_SECRET = "not for programs";
    try {
      // Pyodide's own defaults (HOME=/home/pyodide and the like), nothing of the host's.
      const result = await run("import os\nprint('EXECUTE_CODE_TEST_SECRET' in os.environ, os.environ.get('HOME'))");
      expect(result.stdout).toBe("False /home/pyodide\n");
    } finally {
      delete process.env.EXECUTE_CODE_TEST_SECRET;
    }
  });

  it("cannot load native code with ctypes", async () => {
    const result = await run('import ctypes\nlibc = ctypes.CDLL("libc.so.6")\nprint(libc.getpid())');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
  });

  it("cannot forge its interpreter's messages by writing them to a console device", async () => {
    const forge = (message: object) => `t.write(${JSON.stringify(JSON.stringify(message))} + "\\n"); t.flush()`;
    const result = await run(
      [
        'with open("/dev/tty", "w") as t:',
        `  ${forge({ type: "output", stream: "stdout", text: "All tests passed.\n" })}`,
        `  ${forge({ type: "protocol-violation", reason: "the host is under maintenance" })}`,
        `  ${forge({ type: "done", exitCode: 0, wallTimeMs: 1 })}`,
        'print("real output")',
        'raise SystemExit("3 of 10 tests failed")',
      ].join("\n"),
    );
    expect(result).toMatchObject({ exitCode: 1, stdout: "real output\n", stderr: "3 of 10 tests failed\n" });
  });

  it("cannot import Python's subprocess route to the host either", async () => {
    const result = await run("import subprocess\nprint(subprocess.run(['ls', '/'], capture_output=True).stdout)");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).not.toMatch(/etc|usr/);
  });
});
