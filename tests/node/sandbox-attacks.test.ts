// Each test is an attack on the Python sandbox, written as a hostile user
// would try it through a program, and what must hold.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPyodideExecutor, type Executor, type RunOutcome } from "../../src/sandbox";
import { sandboxCommand } from "../../src/sandbox/pyodide/interpreter-command";
import { probeIsolation } from "../../src/sandbox/pyodide/isolation";
import { findProgramFrames } from "../../src/view/traceback";
import { alive, processTree } from "./process-tree";

let executor: Executor;
let listener: Server;
let port: number;
let requestsSeen: string[] = [];
beforeAll(async () => {
  executor = createPyodideExecutor({ poolSize: 2, memoryLimitMb: 512, onWarning: () => undefined });
  listener = createServer((req, res) => {
    requestsSeen.push(`${req.method} ${req.url}`);
    res.end("ok");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  await executor.close();
  listener.close();
});
afterEach(() => {
  requestsSeen = [];
});

const run = async (code: string, timeoutMs = 15_000) =>
  (await executor.run({ code, timeoutMs, signal: new AbortController().signal })) as RunOutcome;

const ffi = (js: string) =>
  `from pyodide.ffi import create_proxy\nF = create_proxy(len).constructor.constructor\nprint(F(${JSON.stringify(js)})())`;

const isolated = probeIsolation().network;

describe("escaping from Python into JavaScript", () => {
  it("finds Function on the FFI route, but it compiles nothing", async () => {
    const result = await run(ffi("return typeof process"));
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("EvalError: Code generation from strings disallowed");
    expect(result.exitCode).toBe(1);
  });

  it("cannot get to process.getBuiltinModule('http'), and a loopback listener hears nothing", async () => {
    const result = await run(
      ffi(`process.getBuiltinModule('http').get('http://127.0.0.1:${port}/stolen'); return 'sent'`),
    );
    expect(result.stdout).not.toContain("sent");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requestsSeen).toEqual([]);
  });

  it("cannot reach a loopback listener with Python sockets", async () => {
    const result = await run(
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2).sendall(b"GET /py HTTP/1.0\\r\\n\\r\\n")\n    print("connected")\nexcept Exception as e:\n    print("refused", type(e).__name__)`,
    );
    expect(result.stdout).toMatch(/^refused/);
    expect(requestsSeen).toEqual([]);
  });

  it.skipIf(!isolated)(
    "even a process that does reach Node's built-in modules has no network, workers, child processes, host files or host processes",
    async () => {
      // The interpreter's own command line, running an escaped attacker's script instead of Pyodide.
      const fixtures = `${path.dirname(fileURLToPath(import.meta.url))}/fixtures`;
      const { command, args } = sandboxCommand({
        isolation: probeIsolation(),
        script: `${fixtures}/escaped-node.mjs`,
        args: [String(port), String(process.pid)],
        readable: [`${fixtures}/`],
        memory: { jsHeapMb: 64, wasmMb: 64 },
      });
      // Without the flag that forbids eval, so that the other layers are what is tested.
      const child = spawn(
        command,
        args.filter((a) => a !== "--disallow-code-generation-from-strings"),
        { env: {} },
      );
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      await new Promise((resolve) => child.once("exit", resolve));
      const outcomes = JSON.parse(out) as Record<string, string>;
      expect(outcomes.eval).toBe("allowed: 2");
      expect(outcomes.http).toMatch(/^refused: (ENETUNREACH|ECONNREFUSED)/);
      expect(outcomes.tcp).toMatch(/^refused: (ENETUNREACH|ECONNREFUSED)/);
      expect(outcomes.worker).toBe("refused: ERR_ACCESS_DENIED");
      expect(outcomes.child_process).toBe("refused: ERR_ACCESS_DENIED");
      expect(outcomes["read /etc/passwd"]).toBe("refused: ERR_ACCESS_DENIED");
      expect(outcomes["write /tmp"]).toBe("refused: ERR_ACCESS_DENIED");
      expect(outcomes["signal the host's processes"]).toBe("refused: ESRCH");
      expect(outcomes.dlopen).toMatch(/^refused: ERR_(DLOPEN_DISABLED|ACCESS_DENIED)/);
      expect(outcomes.environment).toBe("allowed: 0");
      expect(existsSync("/tmp/escaped-node-was-here")).toBe(false);
      expect(requestsSeen).toEqual([]);
    },
    30_000,
  );
});

describe("state planted by one run, looked for by the next", () => {
  it("finds none of it: builtins, sys.modules, /tmp and JavaScript globals start fresh", async () => {
    const plant = await run(
      [
        "import builtins, sys, types",
        "builtins.print = lambda *a, **k: sys.stdout.write('hooked\\n')",
        "fake = types.ModuleType('math'); fake.pi = 3; sys.modules['math'] = fake",
        "open('/tmp/planted.txt', 'w').write('from an earlier user')",
        "from pyodide.ffi import create_proxy",
        "create_proxy(len).constructor.constructor.planted = 'from an earlier user'",
        "sys.stdout.write('planted\\n')",
      ].join("\n"),
    );
    expect(plant).toMatchObject({ stdout: "planted\n", exitCode: 0 });
    // Every interpreter of the pool, in turn.
    for (let i = 0; i < 3; i++) {
      const look = await run(
        [
          "import math, os",
          "from pyodide.ffi import create_proxy",
          "print(math.pi)",
          "print(os.path.exists('/tmp/planted.txt'))",
          "print(getattr(create_proxy(len).constructor.constructor, 'planted', 'absent'))",
        ].join("\n"),
      );
      expect(look).toMatchObject({ stdout: "3.141592653589793\nFalse\nabsent\n", exitCode: 0 });
    }
  });
});

describe("programs that used to break the pool", () => {
  it("system() underneath os leaves every later run working", async () => {
    // posix.system is the call os.system wraps: it reaches for Node's child_process, which is refused.
    for (let i = 0; i < 3; i++) {
      const result = await run('import posix\nprint("before", flush=True)\nposix.system("true")');
      expect(result.stdout).toContain("before\n");
      expect(result.exitCode).not.toBe(0);
    }
    for (let i = 0; i < 3; i++)
      expect(await run(`print(${i} * 2)`)).toMatchObject({ stdout: `${i * 2}\n`, exitCode: 0 });
  });

  it("os.system says that the sandbox starts no processes, as subprocess does", async () => {
    const result = await run('import os\nprint("three lines")\nos.system("ls")');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^Traceback/);
    expect(result.stderr).toContain("OSError: [Errno 138] The sandbox cannot start processes (os.system)");
    // The card links traceback frames to the program's lines: only the call's line may be one.
    expect(findProgramFrames(result.stderr, 3).map((frame) => frame.programLine)).toEqual([3]);
  });

  it("a 1 MB sys.stdout.write arrives whole, and the interpreter reports its exit", async () => {
    const pieces: string[] = [];
    const result = (await executor.run({
      code: "import sys\nsys.stdout.write('ab' * 500_000)\nprint('|done', file=sys.stderr)",
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      onOutput: (stream, text) => stream === "stdout" && pieces.push(text),
    })) as RunOutcome;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toHaveLength(1_000_000);
    expect(result.stdout).toBe("ab".repeat(500_000));
    expect(result.stderr).toBe("|done\n");
    expect(result.truncated).toEqual({ stdout: 0, stderr: 0 });
    // It came in chunks, as it was written.
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(result.stdout);
  });

  it("output past the cap is cut and counted, not lost silently", async () => {
    const result = await run(
      "import sys\nsys.stdout.write('x' * 1_500_000)\nprint('still running', file=sys.stderr)",
      30_000,
    );
    // Its start and its end are kept, the middle cut where the start ends, and every character counted.
    expect(result.stdout).toMatch(/^x+$/);
    expect(result.stdout.length).toBeGreaterThan(500_000);
    expect(result.stdout.length + result.truncated!.stdout).toBe(1_500_000);
    expect(result.truncated).toMatchObject({ stderr: 0, at: { stdout: 500_000 }, lines: { stdout: 0 } });
    expect(result).toMatchObject({ stderr: "still running\n", exitCode: 0 });
  });
});

describe("memory", () => {
  it("a 2 GB allocation in Python gets MemoryError, and the next run works", async () => {
    const result = await run("chunks = [bytearray(1024 ** 3) for _ in range(2)]\nprint('allocated')");
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("MemoryError");
    expect(result.exitCode).toBe(1);
    expect(await run("print(sum(range(10)))")).toMatchObject({ stdout: "45\n", exitCode: 0 });
  });

  it.skipIf(process.platform !== "linux")(
    "2 GB pushed into JavaScript memory ends the run with a clear result, not a hung pool",
    async () => {
      const result = await run(
        "from pyodide.ffi import to_js\nb = bytearray(128 * 1024 ** 2)\nkeep = [to_js(b) for _ in range(16)]\nprint('survived')",
        60_000,
      );
      expect(result.stdout).toBe("");
      expect(result.exitCode).toBeNull();
      expect(result.stderr).toMatch(
        /used more than 512 MB of memory and was stopped|ran out of memory|MemoryError|ConversionError|RangeError/,
      );
      expect(await run("print('next')")).toMatchObject({ stdout: "next\n", exitCode: 0 });
    },
    90_000,
  );
});

describe("nothing a run starts outlives it", () => {
  it.skipIf(process.platform !== "linux")(
    "a program that tries to leave a spinning worker thread behind leaves no process",
    async () => {
      const pending = run(
        [
          "from pyodide.ffi import create_proxy",
          "F = create_proxy(len).constructor.constructor",
          "try:",
          "    F(\"new (process.getBuiltinModule('worker_threads').Worker)('for(;;){}', { eval: true })\")()",
          "except Exception as e:",
          "    print('no worker:', type(e).__name__, flush=True)",
          "import time",
          "time.sleep(1.5)",
        ].join("\n"),
      );
      // While it runs, note its process and every descendant.
      let tree: number[] = [];
      for (let i = 0; i < 100 && tree.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const running = (executor.health!().interpreters as Array<{ pid: number; state: string }>).find(
          (p) => p.state === "running",
        );
        if (running) tree = processTree(running.pid);
      }
      expect(tree.length).toBeGreaterThan(0);
      const result = await pending;
      expect(result.stdout).toContain("no worker: JsException");
      await expect.poll(() => tree.filter(alive), { timeout: 10_000 }).toEqual([]);
    },
    60_000,
  );
});

describe("what the memory snapshot must not share, and what it must not keep", () => {
  it("each run has fresh randomness, and os.urandom, secrets and uuid4 work", async () => {
    const program =
      "import random, secrets, uuid, os\nprint(random.random(), secrets.token_hex(4), uuid.uuid4(), len(os.urandom(8)))";
    const [a, b] = [await run(program), await run(program)];
    expect(a.exitCode).toBe(0);
    const [first, second] = [a.stdout.trim().split(" "), b.stdout.trim().split(" ")];
    expect(first[3]).toBe("8");
    for (const [i, value] of first.slice(0, 3).entries()) expect(value).not.toBe(second[i]);
  });

  it("leaves no module that leads to JavaScript or the file system", async () => {
    const result = await run(
      "import sys\nprint(sorted(m for m in sys.modules if m == 'js' or m.startswith(('js.', 'pyodide_js'))))",
    );
    expect(result.stdout).toBe("[]\n");
  });
});

// The attacks first written for the CPython engine, against this one: what
// a program can reach of processes, descriptors, the disk and signals.
describe("processes, descriptors, the disk and signals", () => {
  it("sees no process of the host or of another run, and cannot fork", async () => {
    const result = await run(
      [
        "import os",
        "print(sorted(p for p in os.listdir('/proc') if p.isdigit()))",
        "try:",
        "    os.fork()",
        "    print('forked')",
        "except (OSError, AttributeError) as error:",
        "    print('no fork:', type(error).__name__)",
      ].join("\n"),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\[(?:'42')?\]\nno fork: (OSError|AttributeError)\n$/);
  });

  it("reaches no descriptor of the host: the ones it sees are the interpreter's own", async () => {
    const result = await run(
      [
        "import os",
        "seen = []",
        "for fd in range(3, 1024):",
        "    try:",
        "        os.fstat(fd)",
        "        seen.append(fd)",
        "    except OSError:",
        "        pass",
        "for fd in seen:",
        "    try:",
        "        print(fd, len(os.read(fd, 64)))",
        "    except OSError as error:",
        "        print(fd, 'unreadable', type(error).__name__)",
        "print('done')",
      ].join("\n"),
    );
    expect(result.exitCode).toBe(0);
    // Whatever Emscripten numbers its own files, none reads a byte of the host.
    expect(result.stdout.trim().split("\n").at(-1)).toBe("done");
    for (const line of result.stdout.trim().split("\n").slice(0, -1)) expect(line).toMatch(/ (0|unreadable \w+)$/);
  });

  it("filling the disk stops at the run's memory, and the next run has room", async () => {
    const result = await run(
      [
        "chunk = b'x' * (16 * 1024 ** 2)",
        "with open('/tmp/fill', 'wb') as f:",
        "    for _ in range(128):",
        "        f.write(chunk)",
        "print('filled')",
      ].join("\n"),
      60_000,
    );
    expect(result.stdout).toBe("");
    expect(result.exitCode === 1 || result.exitCode === null).toBe(true);
    expect(
      await run(
        "import os\nprint(os.path.exists('/tmp/fill'))\nopen('/tmp/small', 'w').write('ok')\nprint(open('/tmp/small').read())",
      ),
    ).toMatchObject({
      stdout: "False\nok\n",
      exitCode: 0,
    });
  });

  it("cannot signal the host or the sandbox's other processes", async () => {
    const before = (executor.health!().interpreters as unknown[]).length;
    const result = await run(
      [
        "import os, signal",
        "for pid in (1, os.getppid(), os.getpid() + 1, -1):",
        "    try:",
        "        os.kill(pid, signal.SIGKILL)",
        "        print(pid, 'sent')",
        "    except (OSError, AttributeError) as error:",
        "        print(pid, 'refused')",
      ].join("\n"),
    );
    expect(result.stdout).not.toContain("sent");
    expect(await run("print('still here')")).toMatchObject({ stdout: "still here\n", exitCode: 0 });
    expect((executor.health!().interpreters as unknown[]).length).toBeGreaterThanOrEqual(Math.min(before, 1));
  });
});
