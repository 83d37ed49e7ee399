// The CPython engine: the scientific stack works, and each test after that is
// an attack a hostile user would try through a program, and what must hold.
// It needs bubblewrap and Debian's python3 packages (scripts/setup.sh).
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CappedText } from "../../src/contract/truncate";
import { createCpythonExecutor, probeCpython, type Executor, type RunOutcome } from "../../src/sandbox";
import { withoutDrawnCopies } from "../../src/sandbox/executor";
import { alive, processTree } from "./process-tree";

let executor: Executor;
let listener: Server;
let port: number;
let requestsSeen = 0;

beforeAll(async () => {
  const probe = probeCpython();
  if (!probe.available)
    throw new Error(`The CPython engine cannot run on this machine (run scripts/setup.sh): ${probe.reason}`);
  listener = createServer((_, res) => {
    requestsSeen++;
    res.end("ok");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  listener?.close();
});

const run = async (code: string, timeoutMs = 20_000, signal = new AbortController().signal) =>
  (await executor.run({ code, timeoutMs, signal })) as RunOutcome;

/** Command lines of every process below this test's process. */
const descendants = () =>
  processTree(process.pid)
    .filter(alive)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        return "";
      }
    });

/** Every process the sandbox has now: the warm parents (bubblewrap's python) and every run cloned from them. */
const sandboxProcesses = () =>
  processTree(process.pid).filter((pid) => {
    try {
      return alive(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("/sandbox/zygote.py");
    } catch {
      return false;
    }
  });

/** Which of `needles` any page a process could have written (writable or anonymous) holds, read once through /proc. */
function memoryHolds(pid: number, needles: string[]): string[] {
  const wanted = needles.map((needle) => Buffer.from(needle));
  const longest = Math.max(...wanted.map((needle) => needle.length));
  const found = new Set<string>();
  const mem = openSync(`/proc/${pid}/mem`, "r");
  try {
    for (const line of readFileSync(`/proc/${pid}/maps`, "utf8").split("\n").filter(Boolean)) {
      const [range, perms, , , , path = ""] = line.split(/\s+/);
      if (!perms!.startsWith("r") || path === "[vvar]" || path === "[vsyscall]") continue;
      if (!perms!.includes("w") && path && !path.startsWith("[")) continue;
      const [start, end] = range!.split("-").map((hex) => Number.parseInt(hex, 16));
      for (let at = start!; at < end!; at += 16 << 20) {
        // Each piece reaches into the next, so that nothing is missed where two meet.
        const chunk = Buffer.alloc(Math.min((16 << 20) + longest, end! - at));
        let read = 0;
        try {
          read = readSync(mem, chunk, 0, chunk.length, at);
        } catch {
          continue;
        }
        const piece = chunk.subarray(0, read);
        wanted.forEach((needle, i) => {
          if (piece.includes(needle)) found.add(needles[i]!);
        });
      }
    }
    return [...found];
  } finally {
    closeSync(mem);
  }
}

/** Reading every page of every sandbox process takes seconds, and half a minute on a machine whose cores are busy. */
const SCAN_TIMEOUT_MS = 180_000;

// Every case holds however a run's process is made: cloned into its namespaces, or forked twice.
describe.each(["clone", "fork-twice"] as const)("runs made by %s", (runProcess) => {
  beforeAll(() => {
    executor = createCpythonExecutor({ memoryLimitMb: 1024, runProcess });
  });
  afterAll(async () => {
    await executor?.close();
  });

  it("says in its health how a run's process is made", async () => {
    await run("print(1)");
    const python = (executor.health!() as { python: { forksPerRun: number } }).python;
    // Debian's glibc on x86-64 or arm64: a run is one clone of the warm parent.
    expect(python.forksPerRun).toBe(runProcess === "clone" ? 1 : 2);
  });

  describe("CPython with the scientific stack", () => {
    it("runs numpy, pandas, sympy and scipy, with the exit code and a traceback that points at the program", async () => {
      const result = await run(
        [
          "import numpy as np, pandas as pd, sympy as sp, scipy.integrate as si",
          "print(np.arange(10).sum(), pd.Series([1, 2, 3]).mean())",
          "x = sp.Symbol('x')",
          "print(sp.factor(x**2 - 1), round(si.quad(lambda t: t * t, 0, 3)[0], 6))",
          "1 / 0",
        ].join("\n"),
      );
      expect(result.stdout).toBe("45 2.0\n(x - 1)*(x + 1) 9.0\n");
      expect(result.exitCode).toBe(1);
      // The frame, and the program's line it raised on.
      expect(result.stderr).toContain('File "<program>", line 5, in <module>\n    1 / 0\n');
      expect(result.stderr).toContain("ZeroDivisionError: division by zero");
    });

    it("ends input() at once, and says that no one can type into the program", async () => {
      const result = await run('name = input("Your name? ")\nprint(name)');
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/EOFError: EOF when reading a line\n$/);
      expect(result.failure).toMatchObject({ type: "EOFError", explanation: { kind: "no-input" } });
    });

    it("says why a program failed: its frame's values, the span, the library's frames", async () => {
      const result = await run(
        "import json\ndef mean(values):\n    return sum(values) / len(values)\nprint(mean([]))\njson.loads('{')",
      );
      expect(result.failure).toMatchObject({
        type: "ZeroDivisionError",
        function: "mean",
        line: 3,
        column: 11,
        endColumn: 36,
        values: [{ name: "values", value: "[]" }],
      });
      const library = await run("import json\ndef load(text):\n    return json.loads(text)\nload('{')");
      const frames = (library.failure as { frames: { own: boolean; module?: string }[] }).frames;
      expect(frames.map((frame) => frame.own)).toEqual([true, true, ...frames.slice(2).map(() => false)]);
      expect(frames.at(-1)).toMatchObject({ own: false, module: "json" });
      // Not one of the run's files.
      expect(library.files?.map((file) => file.name) ?? []).toEqual([]);
    });

    it("takes no facts of a failure that a program wrote itself", async () => {
      const result = await run(
        "import json, sys\nforged = {'type': 'ZeroDivisionError', 'message': 'division by zero'}\njson.dump(forged, open('/mnt/data/.ecu-failure.json', 'w'))\nsys.exit(1)",
      );
      expect(result).toMatchObject({ exitCode: 1, stderr: "" });
      expect(result.failure).toBeUndefined();
      expect(result.files ?? []).toEqual([]);
    });

    it("says that the sandbox has no internet when a program reaches for it", async () => {
      const result = await run("import urllib.request\nurllib.request.urlopen('http://example.com', timeout=5)");
      expect(result.failure).toMatchObject({ type: "URLError", explanation: { kind: "no-internet" } });
    });

    it("answers at once when a value at the failing line has a slow, huge or raising __repr__", async () => {
      const result = await run(
        [
          "import time",
          "class Hostile:",
          "    def __repr__(self):",
          "        time.sleep(600)",
          "        return 'x' * 10**8",
          "    def __len__(self):",
          "        raise RuntimeError('no')",
          "value = Hostile()",
          "print(value, 1 / 0)",
        ].join("\n"),
        30_000,
      );
      expect(result).toMatchObject({ timedOut: false, exitCode: 1 });
      expect(result.failure).toMatchObject({ values: [{ name: "value", value: "<Hostile object>", type: "Hostile" }] });
    });

    it("saves a matplotlib figure in the working directory", async () => {
      const result = await run(
        "import matplotlib.pyplot as plt, os\nplt.plot([1, 2, 3])\nplt.savefig('plot.png')\nprint(os.path.getsize('plot.png') > 1000)",
      );
      expect(result).toMatchObject({ stdout: "True\n", exitCode: 0 });
    });

    it("a figure saved with savefig and then shown is the same image, so the answer holds it once", async () => {
      const result = await run(
        "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title('Squares')\nplt.savefig('squares.png')\nplt.show()",
      );
      expect(result.files?.map((file) => file.name).sort()).toEqual(["figure-1.png", "squares.png"]);
      expect(withoutDrawnCopies(result.files!).map(({ name, alt }) => ({ name, alt }))).toEqual([
        { name: "squares.png", alt: expect.stringContaining("Squares") },
      ]);
    });

    it("sys.exit(3) is exit code 3, and output streams as it is written", async () => {
      const pieces: string[] = [];
      const result = (await executor.run({
        code: "import sys, time\nprint('one', flush=True)\ntime.sleep(0.3)\nprint('two')\nsys.exit(3)",
        timeoutMs: 20_000,
        signal: new AbortController().signal,
        onOutput: (_, text) => pieces.push(text),
      })) as RunOutcome;
      expect(result).toMatchObject({ exitCode: 3, stdout: "one\ntwo\n" });
      expect(pieces.length).toBeGreaterThanOrEqual(2);
    });

    it("every run gets fresh randomness: random, numpy, sympy, uuid4 and secrets differ between runs", async () => {
      const program = [
        "import random, numpy, uuid, secrets, sympy.core.random",
        "print(random.random(), numpy.random.rand(), uuid.uuid4(), secrets.token_hex(8), sympy.core.random.rng.random())",
      ].join("\n");
      const [a, b] = await Promise.all([run(program), run(program)]);
      expect(a.exitCode).toBe(0);
      const [first, second] = [a.stdout.trim().split(" "), b.stdout.trim().split(" ")];
      for (const [i, value] of first.entries()) expect(value).not.toBe(second[i]);
    });
  });

  describe("attacks on the CPython engine", () => {
    it("has no network: a loopback listener on the host hears nothing", async () => {
      const result = await run(
        `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("connected")\nexcept OSError as e:\n    print("refused", e.errno)`,
      );
      expect(result.stdout).toMatch(/^refused/);
      expect(requestsSeen).toBe(0);
    });

    it("is not root, sees no host files and no processes, and holds no descriptor of the host", async () => {
      const result = await run(
        [
          "import os",
          "print(os.getuid(), os.getpid())",
          "print(sorted(os.listdir('/proc')))",
          "for path in ('/etc/passwd', '/root', '/home', '/var', '/work/main'):",
          "    print(path, os.path.exists(path))",
          "print('/usr/local', os.listdir('/usr/local'))",
          "open_fds = []",
          "for fd in range(3, 1024):",
          "    try:",
          "        os.fstat(fd)",
          "        open_fds.append(fd)",
          "    except OSError:",
          "        pass",
          "print('fds', open_fds)",
          "print('env', ' '.join(f'{k}={v}' for k, v in sorted(os.environ.items())))",
        ].join("\n"),
      );
      expect(result.stdout).toBe(
        [
          "1000 1",
          "[]",
          "/etc/passwd False",
          "/root False",
          "/home False",
          "/var False",
          "/work/main False",
          "/usr/local []",
          "fds []",
          "env HOME=/mnt/data LANG=C.UTF-8 MPLBACKEND=Agg MPLCONFIGDIR=/tmp OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PWD=/mnt/data TMPDIR=/tmp",
          "",
        ].join("\n"),
      );
    });

    it("finds nothing of an earlier run: /tmp, the working directory and the interpreter start fresh", async () => {
      await run(
        "import builtins\nopen('/tmp/planted', 'w').write('x')\nopen('left.txt', 'w').write('x')\nbuiltins.planted = 1",
      );
      const result = await run(
        "import os, builtins\nprint(os.listdir('/tmp'), os.listdir('.'), hasattr(builtins, 'planted'))",
      );
      expect(result.stdout).toBe("[] [] False\n");
    });

    it("cannot signal or see another run that is running at the same time", async () => {
      const victim = run("import time\ntime.sleep(1.5)\nprint('survived')");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const attacker = await run(
        "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError as e:\n    print('kill', e.errno)\nfor pid in range(2, 400):\n    try:\n        os.kill(pid, 0)\n        print('sees', pid)\n    except OSError:\n        pass",
      );
      expect(attacker.stdout).not.toContain("sees");
      expect((await victim).stdout).toBe("survived\n");
    });

    it("each run is a CPU group of its own, however many sessions its processes start", async () => {
      const resources = (executor.health!() as { isolation: { resources: string } }).isolation.resources;
      // Where the host has a cpu controller (v1's, or v2's at the root), as these machines do.
      const cpuController =
        existsSync("/sys/fs/cgroup/cpu/cpu.shares") ||
        (existsSync("/sys/fs/cgroup/cgroup.controllers") &&
          /\bcpu\b/.test(readFileSync("/sys/fs/cgroup/cgroup.controllers", "utf8")));
      if (!cpuController) return void expect(resources).not.toMatch(/an equal share of the cores/);
      expect(resources).toMatch(/an equal share of the cores/);
      // Each child a session of its own: with the kernel's autogroups, each would weigh as much as a whole run.
      const program =
        "import os, time\nfor i in range(6):\n    if os.fork() == 0:\n        os.setsid()\n        time.sleep(4)\n        os._exit(0)\ntime.sleep(4)";
      const cpuGroup = (pid: number) => {
        try {
          const lines = readFileSync(`/proc/${pid}/cgroup`, "utf8");
          return (/^\d+:(?:[^:]*,)?cpu(?:,[^:]*)?:(.*)$/m.exec(lines) ?? /^0::(.*)$/m.exec(lines))?.[1];
        } catch {
          return undefined;
        }
      };
      // Every process on the host in one of this test process's runs' groups (a run forked twice has left its tree).
      const groups = () => {
        const members = new Map<string, number>();
        for (const pid of readdirSync("/proc")
          .filter((name) => /^\d+$/.test(name))
          .map(Number)) {
          const group = cpuGroup(pid);
          if (group?.includes(`/execute-code-ui-${process.pid}-`) && group.includes("/run-") && alive(pid))
            members.set(group, (members.get(group) ?? 0) + 1);
        }
        return [...members.values()];
      };
      const runs = [run(program), run(program)];
      // Two runs, two groups, each holding its program and all six of its sessions (and, forked twice, its first fork).
      await expect.poll(() => groups().filter((members) => members >= 7).length, { timeout: 15_000 }).toBe(2);
      await Promise.all(runs);
    });

    it("a fork bomb hits the process limit, dies with the run, and leaves no process behind", async () => {
      const result = await run(
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
        3_000,
      );
      expect(result).toMatchObject({ timedOut: true, signal: "SIGKILL" });
      await expect
        .poll(() => descendants().filter((line) => line.includes("/usr/bin/python3") && !line.includes("zygote")), {
          timeout: 15_000,
        })
        .toEqual([]);
      expect((await run("print(2 + 2)")).stdout).toBe("4\n");
    });

    it("cannot fork past its process limit, even where the harness runs as root", async () => {
      const result = await run(
        [
          "import os, time",
          "started = 0",
          "try:",
          "    for i in range(40):",
          "        if os.fork() == 0:",
          "            time.sleep(2)",
          "            os._exit(0)",
          "        started += 1",
          "except OSError:",
          "    pass",
          "print(started)",
        ].join("\n"),
      );
      expect(Number(result.stdout)).toBeLessThan(16);
    });

    it("can write nowhere but its own /tmp, /mnt/data and /dev/shm: no file, link or shared memory reaches the next run", async () => {
      const attempts = await run(
        [
          "import os",
          "for path in ('/planted', '/dev/planted', '/dev/shm/planted', '/etc/planted', '/sandbox/planted', '/tmp/planted', '/mnt/data/planted'):",
          "    try:",
          "        open(path, 'w').write('x')",
          "        print(path, 'written')",
          "    except OSError:",
          "        print(path, 'refused')",
          "try:",
          "    os.symlink('/tmp', '/bin.new')",
          "    os.rename('/bin.new', '/bin')",
          "    print('/bin replaced')",
          "except OSError:",
          "    print('/bin kept')",
        ].join("\n"),
      );
      expect(attempts.stdout).toBe(
        [
          "/planted refused",
          "/dev/planted refused",
          "/dev/shm/planted written",
          "/etc/planted refused",
          "/sandbox/planted refused",
          "/tmp/planted written",
          "/mnt/data/planted written",
          "/bin kept",
          "",
        ].join("\n"),
      );
      const next = await run(
        "import os\nprint([p for p in ('/dev/shm/planted', '/tmp/planted', '/mnt/data/planted') if os.path.exists(p)])",
      );
      expect(next.stdout).toBe("[]\n");
    });

    it(
      "finds nothing of another participant's program, output or files in any page of its memory",
      async () => {
        // The secrets never appear in the program as they are: its output and its file are decoded from hex.
        const secret = (what: string) => `${what}-${randomUUID()}`;
        const [inCode, inOutput, inFile] = [secret("code"), secret("output"), secret("file")];
        const hex = (text: string) => Buffer.from(text).toString("hex");
        const leaker = await run(
          [
            `kept = "${inCode}"`,
            `print(bytes.fromhex("${hex(inOutput)}").decode())`,
            `open("notes.txt", "w").write(bytes.fromhex("${hex(inFile)}").decode() * 100)`,
          ].join("\n"),
        );
        expect(leaker.stdout).toBe(`${inOutput}\n`);
        expect(Buffer.from(leaker.files![0]!.bytes).toString()).toContain(inFile);
        for (let i = 0; i < 3; i++) await run("print(sum(range(1000)))");
        // Another participant's run, asleep while every page of every process the sandbox has is read.
        const scan = new AbortController();
        const scanner = run("import time\nprint('ready', flush=True)\ntime.sleep(60)", 90_000, scan.signal);
        await expect.poll(() => sandboxProcesses().length >= 2, { timeout: 20_000 }).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const needles = [inCode, inOutput, inFile, Buffer.from(inFile).toString("base64").slice(0, 40)];
        const found = sandboxProcesses().flatMap((pid) => memoryHolds(pid, needles));
        scan.abort();
        await scanner;
        expect(found).toEqual([]);
      },
      SCAN_TIMEOUT_MS,
    );

    // Forked twice (a glibc this engine does not know), a run is a copy of the warm parent and its bookkeeping.
    if (runProcess === "clone")
      it(
        "inherits none of the warm parent's bookkeeping of other runs: no ids, pids or exit codes",
        async () => {
          expect((await run("import sys\nsys.exit(173)")).exitCode).toBe(173);
          const other = new AbortController();
          const sleeper = run("import time\ntime.sleep(60)", 90_000, other.signal);
          await expect.poll(() => sandboxProcesses().length >= 3, { timeout: 20_000 }).toBe(true);
          const looked = await run(
            [
              "import gc, sys",
              "frame, names = sys._getframe(), set()",
              "while frame:",
              "    names |= set(frame.f_locals)",
              "    frame = frame.f_back",
              "print(sorted(names & {'runs', 'ready', 'pending', 'selector', 'send'}))",
              "print(sorted({type(o).__name__ for o in gc.get_objects()} & {'Run', 'Runner'}))",
            ].join("\n"),
          );
          expect(looked.stdout).toBe("[]\n[]\n");
          // Every process but the warm parent (whose parent is bubblewrap): the maker and the runs made by it.
          const sandbox = sandboxProcesses();
          const parentOf = (pid: number) =>
            Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
          const made = sandbox.filter((pid) => sandbox.includes(parentOf(pid)));
          expect(made.length).toBeGreaterThanOrEqual(2);
          // What the warm parent told the Node parent of the first run's exit.
          const found = made.filter((pid) => memoryHolds(pid, ['"code": 173, "signal": null']).length);
          other.abort();
          await sleeper;
          expect(found).toEqual([]);
        },
        SCAN_TIMEOUT_MS,
      );

    it("sees a name of its own, not the host's", async () => {
      const result = await run("import os, socket\nprint(os.uname().nodename, socket.gethostname())");
      expect(result.stdout).toBe("sandbox sandbox\n");
    });

    it("cannot make namespaces of its own: no user, mount or network namespace, in any way", async () => {
      const result = await run(
        [
          "import ctypes, subprocess",
          "libc = ctypes.CDLL(None, use_errno=True)",
          "for flags in (0x10000000, 0x00020000, 0x40000000, 0x02000000):",
          "    print(libc.unshare(flags), ctypes.get_errno())",
          "print(subprocess.run(['unshare', '--user', '--map-root-user', 'true']).returncode != 0)",
          "print(libc.setns(0, 0), ctypes.get_errno())",
        ].join("\n"),
      );
      expect(result.stdout).toBe("-1 1\n-1 1\n-1 1\n-1 1\nTrue\n-1 1\n");
    });

    it("memory held in memfd files stops at the run's memory limit, and the machine gets it back", async () => {
      // memfd pages are shared memory; what the rest of a busy machine allocates mostly is not.
      const shared = () => Number(/^Shmem:\s+(\d+)/m.exec(readFileSync("/proc/meminfo", "utf8"))![1]) * 1024;
      const before = shared();
      // Each memfd stays under the file-size limit; together they would be 3.6 GB.
      const result = await run(
        [
          "import os",
          "held = []",
          "for i in range(60):",
          "    fd = os.memfd_create('x')",
          "    for _ in range(60):",
          "        os.write(fd, b'x' * (1 << 20))",
          "    held.append(fd)",
          "    print(len(held) * 60, flush=True)",
        ].join("\n"),
      );
      const held = Number(result.stdout.trim().split("\n").at(-1) ?? 0);
      expect(held).toBeLessThan(1024);
      expect(result).toMatchObject({ exitCode: null, signal: "SIGKILL" });
      expect(result.stderr).toContain("The program used more than 1024 MB of memory and was stopped.");
      // The card and the model read it in the facts of why the run failed, too.
      expect(result.failure).toMatchObject({ type: "MemoryError", explanation: { kind: "memory" } });
      // What was held (up to the 1 GB limit) is given back once the run's processes are gone.
      await expect.poll(shared, { timeout: 10_000 }).toBeLessThan(before + 256 * 1024 ** 2);
      expect((await run("print(1)")).stdout).toBe("1\n");
    });

    it("a child process stopped for memory is told, and the program that went on ends as it ended", async () => {
      const result = await run(
        [
          "import os, time",
          "children = []",
          "for _ in range(2):",
          "    pid = os.fork()",
          "    if pid == 0:",
          "        held = b'x' * (560 << 20)",
          "        time.sleep(5)",
          "        os._exit(0)",
          "    children.append(pid)",
          "print('killed', sorted(os.waitpid(pid, 0)[1] & 0x7F for pid in children))",
          "open('report.txt', 'w').write('went on')",
        ].join("\n"),
        // A gigabyte written under memory pressure on a busy machine: far more time than the 5 s it sleeps.
        60_000,
      );
      // Two children of 560 MB each do not fit in 1024 MB: the kernel stops one of them.
      expect(result).toMatchObject({ exitCode: 0, signal: null, stdout: "killed [0, 9]\n" });
      expect(result.stderr).toContain("A process of the program used more than 1024 MB of memory and was stopped.");
      expect(result.files?.map((file) => file.name)).toEqual(["report.txt"]);
    });

    it("reaches nothing every run shares on the host: no vsock or other socket family, inotify, keys, io_uring, pipe sizes; a few terminals, a small share of queued signals", async () => {
      const result = await run(
        [
          "import ctypes, fcntl, os, platform, socket",
          "libc = ctypes.CDLL(None, use_errno=True)",
          "def tried(what, call):",
          "    try:",
          "        call()",
          "        print(what, 'allowed')",
          "    except OSError as e:",
          "        print(what, e.errno)",
          "tried('vsock', lambda: socket.socket(40, socket.SOCK_STREAM))",
          "tried('alg', lambda: socket.socket(38, socket.SOCK_SEQPACKET))",
          "tried('unix', lambda: socket.socket(socket.AF_UNIX).close())",
          "tried('ipv4', lambda: socket.socket(socket.AF_INET).close())",
          "r, w = os.pipe()",
          "tried('pipe size', lambda: fcntl.fcntl(w, 1031, 1 << 20))",
          "keyctl = {'x86_64': 250, 'aarch64': 219}[platform.machine()]",
          "for name, call in (('inotify', lambda: libc.inotify_init1(0)), ('keyctl', lambda: libc.syscall(keyctl, 0, 0)), ('io_uring', lambda: libc.syscall(425, 1, None))):",
          "    print(name, call(), ctypes.get_errno())",
          "terminals = 0",
          "try:",
          "    while terminals < 50:",
          "        os.openpty()",
          "        terminals += 1",
          "except OSError:",
          "    pass",
          "print('terminals', terminals)",
          "import resource",
          "print('shares', resource.getrlimit(resource.RLIMIT_SIGPENDING), resource.getrlimit(resource.RLIMIT_MSGQUEUE))",
        ].join("\n"),
      );
      expect(result.stdout).toBe(
        [
          "vsock 97",
          "alg 97",
          "unix allowed",
          "ipv4 allowed",
          "pipe size 1",
          "inotify -1 38",
          "keyctl -1 38",
          "io_uring -1 38",
          "terminals 8",
          "shares (1024, 1024) (65536, 65536)",
          "",
        ].join("\n"),
      );
    });

    it("holds at most 64 descriptors per process, which bounds the socket buffers no memory limit counts", async () => {
      // Bytes queued on unix sockets are the kernel's, outside the run's memory limit: each pair holds hundreds of KB.
      const result = await run(
        [
          "import socket",
          "pairs = []",
          "try:",
          "    while True:",
          "        pairs.append(socket.socketpair())",
          "except OSError as error:",
          "    print('pairs', len(pairs), error.errno)",
        ].join("\n"),
      );
      const [, pairs, errno] = /^pairs (\d+) (\d+)\n$/.exec(result.stdout) ?? [];
      expect(Number(errno)).toBe(24); // EMFILE
      expect(Number(pairs)).toBeGreaterThan(20);
      expect(Number(pairs)).toBeLessThanOrEqual(31);
    });

    it("is a host user of its own: a run that uses up what the kernel counts per user leaves another run its share", async () => {
      // Descriptors in flight over unix sockets are counted per user: past the sender's 64, that user's sends are refused.
      const hog = run(
        [
          "import os, socket, time",
          "a, b = socket.socketpair()",
          "r, w = os.pipe()",
          "held = 0",
          "try:",
          "    for _ in range(400):",
          "        socket.send_fds(a, [b'x'], [r])",
          "        held += 1",
          "except OSError as e:",
          "    print('refused', e.errno)",
          "print('held', held, flush=True)",
          "time.sleep(4)",
        ].join("\n"),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const other = await run(
        "import os, socket\na, b = socket.socketpair()\nr, w = os.pipe()\nsocket.send_fds(a, [b'x'], [r])\nprint('sent')",
      );
      expect(other).toMatchObject({ stdout: "sent\n", exitCode: 0 });
      expect((await hog).stdout).toMatch(/^refused 109\nheld 6\d\n$/);
    });

    it("files and links stop at the run's own number of inodes, so that its tmpfs is quick to tear down", async () => {
      const result = await run(
        "import os\nopen('a', 'w').close()\ntry:\n    for i in range(200_000):\n        os.link('a', f'l{i}')\nexcept OSError as e:\n    print(i < 40_000, e.errno)",
      );
      expect(result.stdout).toBe("True 28\n");
      expect((await run("print('next')")).stdout).toBe("next\n");
    });

    it("files in /tmp and /dev/shm stop at the run's own quota, far below its memory limit", async () => {
      const result = await run(
        [
          "for path in ('/tmp/big', '/dev/shm/big'):",
          "    written = 0",
          "    try:",
          "        with open(path, 'wb') as f:",
          "            for _ in range(2048):",
          "                f.write(b'x' * (1 << 20))",
          "                written += 1",
          "    except OSError as e:",
          "        print(path, written <= 64, e.errno in (27, 28))",
        ].join("\n"),
      );
      expect(result.stdout).toBe("/tmp/big True True\n/dev/shm/big True True\n");
    });

    it("two runs that leave 10 MB of files end completed, and a one-liner beside them is not held up", async () => {
      const big = "import os\nfor name in ('a.bin', 'b.bin'):\n    open(name, 'wb').write(os.urandom(5 * 1024 * 1024))";
      const runs = [run(big, 10_000), run(big, 10_000), run("print(1)", 5_000)];
      const [first, second, small] = await Promise.all(runs);
      for (const outcome of [first!, second!]) {
        expect(outcome).toMatchObject({ exitCode: 0, timedOut: false });
        expect(outcome.files?.map((file) => [file.name, file.bytes.length])).toEqual([
          ["a.bin", 5 * 1024 * 1024],
          ["b.bin", 5 * 1024 * 1024],
        ]);
      }
      expect(small).toMatchObject({ stdout: "1\n", exitCode: 0, timedOut: false });
    });

    it("a hostile figures file fails nobody: its own run returns its other files, and a run beside it finishes", async () => {
      const beside = run("import time\ntime.sleep(1)\nprint('beside')");
      const hostile = await run("open('.ecu-figures.json', 'w').write('[' * 100000)\nopen('kept.txt', 'w').write('k')");
      expect((await beside).stdout).toBe("beside\n");
      expect(hostile.exitCode).toBe(0);
      expect((hostile.files ?? []).map((file) => file.name)).toEqual(["kept.txt"]);
      expect((await run("print(1)")).stdout).toBe("1\n");
    });

    it("a process started in the background does not outlive the run", async () => {
      const result = await run(
        "import subprocess\nsubprocess.Popen(['sleep', '600'], start_new_session=True)\nprint('left it')",
      );
      expect(result.stdout).toBe("left it\n");
      await expect
        .poll(() => descendants().filter((line) => line.startsWith("sleep 600")), { timeout: 15_000 })
        .toEqual([]);
    });

    it("filling the disk stops at the run's own quota, and the next run has room", async () => {
      const result = await run(
        "try:\n    with open('big', 'wb') as f:\n        for _ in range(1024):\n            f.write(b'x' * 1024 * 1024)\nexcept OSError as e:\n    print('stopped', e.errno)",
      );
      expect(result.stdout).toMatch(/^stopped (27|28)\n$/);
      expect((await run("open('small', 'w').write('ok')\nprint(open('small').read())")).stdout).toBe("ok\n");
    });

    it("a memory bomb gets MemoryError, and the next run works", async () => {
      const result = await run("try:\n    b = bytearray(4 * 1024 ** 3)\nexcept MemoryError:\n    print('MemoryError')");
      expect(result.stdout).toBe("MemoryError\n");
      expect((await run("print(1)")).stdout).toBe("1\n");
    });

    it("an endless loop ends at the time limit, keeps what it printed, and the next run works", async () => {
      const result = await run("print('started', flush=True)\nwhile True:\n    pass", 1_500);
      expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "started\n" });
      expect((await run("print(2 + 2)")).stdout).toBe("4\n");
    });

    it("stops when the caller aborts", async () => {
      const abort = new AbortController();
      const pending = run("while True: pass", 20_000, abort.signal);
      setTimeout(() => abort.abort(), 500);
      expect(await pending).toMatchObject({ timedOut: false, signal: "SIGKILL" });
    });

    it("a flood of output is stopped at the output budget, with a note, long before its time limit", async () => {
      const result = await run(
        "import sys\nchunk = b'x' * (1 << 20)\nwhile True: sys.stdout.buffer.write(chunk)",
        20_000,
      );
      expect(result).toMatchObject({ timedOut: false, signal: "SIGKILL", exitCode: null });
      expect(result.stderr).toMatch(/The program wrote more than 4 MB of output and was stopped\.\n$/);
      expect(result.stdout.endsWith("xxxx")).toBe(true);
    });

    it("output past the budget is not read: the flooding program gets no further than a pipe's worth", async () => {
      // It notes after every write how far it got; the note survives its end, in its files. The note is
      // replaced whole, so a kill between opening and writing it cannot leave it empty.
      const result = await run(
        [
          "import os",
          "chunk = b'y' * (1 << 16)",
          "written = 0",
          "while True:",
          "    os.write(2, chunk)",
          "    written += len(chunk)",
          "    with open('written.tmp', 'w') as note:",
          "        note.write(str(written))",
          "    os.replace('written.tmp', 'written.txt')",
        ].join("\n"),
        20_000,
      );
      expect(result.stderr).toMatch(/The program wrote more than 4 MB of output and was stopped\.\n$/);
      const note = result.files?.find((file) => file.name === "written.txt");
      const written = Number(Buffer.from(note!.bytes).toString());
      expect(written).toBeGreaterThan(4 * 1024 ** 2);
      expect(written).toBeLessThanOrEqual(4 * 1024 ** 2 + 2 * (1 << 16));
    });

    it("a program that floods its output shows its latest lines live, not a frozen start", async () => {
      const small = createCpythonExecutor({ maxOutputChars: 1000 });
      try {
        const live = new CappedText(1000);
        let seenWhileRunning = "";
        const result = (await small.run({
          code: "import time\nfor i in range(100_000): print(i)\nprint('the end', flush=True)\ntime.sleep(3)",
          timeoutMs: 20_000,
          signal: new AbortController().signal,
          onOutput: (_, text, skipped) => {
            if (skipped) live.skip(skipped);
            live.add(text);
            seenWhileRunning = live.text;
          },
        })) as RunOutcome;
        expect(seenWhileRunning.endsWith("99999\nthe end\n")).toBe(true);
        expect(live.text.length + live.cut).toBe(result.stdout.length + result.truncated!.stdout);
      } finally {
        await small.close();
      }
    });

    it("output past the cap keeps its start and its end; the middle is cut and counted", async () => {
      const small = createCpythonExecutor({ maxOutputChars: 1000 });
      try {
        const result = (await small.run({
          code: "print('x' * 5000)\nfor i in range(2000): print(i)\nprint('the end')",
          timeoutMs: 20_000,
          signal: new AbortController().signal,
        })) as RunOutcome;
        expect(result.stdout).toHaveLength(1000);
        expect(result.stdout.startsWith("x".repeat(500))).toBe(true);
        expect(result.stdout.endsWith("1999\nthe end\n")).toBe(true);
        const printed = `${"x".repeat(5000)}\n${Array.from({ length: 2000 }, (_, i) => `${i}\n`).join("")}the end\n`;
        expect(result.truncated).toEqual({
          stdout: printed.length - 1000,
          stderr: 0,
          at: { stdout: 500 },
          lines: { stdout: printed.slice(500, -500).split("\n").length - 1 },
        });
      } finally {
        await small.close();
      }
    });
  });

  describe("figures and files from CPython", () => {
    it("a figure shown with plt.show() and one left open become PNG files with alt text; written files come back too", async () => {
      const result = await run(
        [
          "import matplotlib.pyplot as plt",
          "plt.plot([1, 4, 9])",
          "plt.title('Squares')",
          "plt.xlabel('n')",
          "plt.show()",
          "plt.figure()",
          "plt.bar([1, 2], [3, 4])",
          "open('data.csv', 'w').write('a,b\\n1,2\\n')",
        ].join("\n"),
      );
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("");
      const files = (result.files ?? []).map((file) => ({
        name: file.name,
        mediaType: file.mediaType,
        alt: file.alt,
        png: Buffer.from(file.bytes).subarray(1, 4).toString(),
      }));
      expect(files).toEqual([
        { name: "data.csv", mediaType: "text/csv", alt: undefined, png: ",b\n" },
        { name: "figure-1.png", mediaType: "image/png", alt: "Squares, x: n", png: "PNG" },
        // Untitled, it is named by its kind.
        { name: "figure-2.png", mediaType: "image/png", alt: "A bar chart", png: "PNG" },
      ]);
    });

    it("names an untitled figure's kind only where its contents leave no doubt", async () => {
      const result = await run(
        [
          "import matplotlib.pyplot as plt",
          "for draw in (",
          "    lambda: plt.pie([1, 2]),",
          "    lambda: plt.scatter([1, 2], [3, 4]),",
          "    lambda: plt.boxplot([1, 2, 3, 9]),",
          "    lambda: plt.plot([1, 4, 9]),",
          "    lambda: plt.fill_between([1, 2], [3, 4]),",
          "):",
          "    plt.figure()",
          "    draw()",
          "    plt.show()",
        ].join("\n"),
      );
      expect(result.stderr).toBe("");
      // A boxplot is lines, as a line chart is, and a filled area a collection, as a scatter is: "A figure".
      expect(result.files?.map((file) => file.alt)).toEqual([
        "A pie chart",
        "A scatter plot",
        "A figure",
        "A figure",
        "A figure",
      ]);
    });

    it("keeps at most ten files and counts the rest", async () => {
      const result = await run("for i in range(12):\n    open(f'f{i:02}.txt', 'w').write(str(i))");
      expect(result.files).toHaveLength(10);
      expect(result.filesCut).toBe(2);
    });

    it("returns no file through a link, a FIFO or a linked folder, and files in folders come back by their path", async () => {
      const result = await run(
        [
          "import os",
          "os.symlink('/etc/ld.so.cache', 'cache-link')",
          "os.symlink('/usr/lib', 'lib-link')",
          "os.mkfifo('pipe')",
          "os.makedirs('out/deeper')",
          "open('out/deeper/result.txt', 'w').write('42')",
          "os.link('out/deeper/result.txt', 'hard.txt')",
        ].join("\n"),
      );
      expect(result.exitCode).toBe(0);
      expect((result.files ?? []).map((file) => [file.name, Buffer.from(file.bytes).toString()])).toEqual([
        ["hard.txt", "42"],
        ["out/deeper/result.txt", "42"],
      ]);
    });

    it("a run that leaves tens of thousands of files gets ten back, and the next run works", async () => {
      const flood = await run("for i in range(30_000):\n    open(f'f{i:05}', 'w').close()");
      expect(flood.exitCode).toBe(0);
      expect(flood.files).toHaveLength(10);
      expect(flood.filesCut).toBeGreaterThan(0);
      expect((await run("print('next')")).stdout).toBe("next\n");
    });

    it("a file whose name is not UTF-8 comes back under a readable name", async () => {
      const result = await run("open(b'bad\\xff.txt', 'w').write('x')");
      expect((result.files ?? []).map((file) => file.name)).toEqual(["bad\uFFFD.txt"]);
    });

    it("a file past the size cap is counted as cut, never sent", async () => {
      const result = await run(
        ["open('big.bin', 'wb').write(b'x' * (6 * 1024 * 1024))", "open('ok.txt', 'w').write('fine')"].join("\n"),
      );
      expect((result.files ?? []).map((file) => file.name)).toEqual(["ok.txt"]);
      expect(result.filesCut).toBe(1);
    });
  });
});

describe("where no control group can be made", () => {
  it("refuses to start, says why, and runs with per-process limits only when the operator accepts them", async () => {
    const nowhere = mkdtempSync(join(tmpdir(), "no-cgroups-"));
    expect(probeCpython({ cgroupRoot: nowhere })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/no control group can be made/),
    });
    expect(() => createCpythonExecutor({ cgroupRoot: nowhere })).toThrow(/needs a control group per run/);
    const warnings: string[] = [];
    const weaker = createCpythonExecutor({
      cgroupRoot: nowhere,
      allowPerProcessMemoryLimit: true,
      onWarning: (message) => warnings.push(message),
    });
    try {
      const result = (await weaker.run({
        code: "print(6 * 7)",
        timeoutMs: 20_000,
        signal: new AbortController().signal,
      })) as RunOutcome;
      expect(result.stdout).toBe("42\n");
      expect(warnings).toEqual([expect.stringMatching(/memory held in memfd or tmpfs files is not bounded/)]);
      expect((weaker.health!() as { isolation: { resources: string } }).isolation.resources).toMatch(/per-process/);
    } finally {
      await weaker.close();
    }
  });
});

describe("the warm parent", () => {
  it("is renewed after its share of runs: later runs get a new hash seed, and runs of the old parent finish", async () => {
    const own = createCpythonExecutor({ renewAfterRuns: 2 });
    const signal = new AbortController().signal;
    const run = async (code: string) => (await own.run({ code, timeoutMs: 20_000, signal })) as RunOutcome;
    try {
      const first = (await run("print(hash('abc'))")).stdout;
      expect((await run("print(hash('abc'))")).stdout).toBe(first);
      // Still on the old parent while the fresh one starts: a run that outlasts the change-over.
      const long = run("import time\ntime.sleep(2)\nprint(hash('abc'))");
      let later = first;
      for (let tries = 0; later === first && tries < 100; tries++) {
        later = (await run("print(hash('abc'))")).stdout;
        if (later === first) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(later).not.toBe(first);
      expect((await long).stdout).toBe(first);
      expect((own.health!() as { warmParent: { renewals: number } }).warmParent.renewals).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it("a run whose process cannot be prepared is refused with the reason, not handed out dead", async () => {
    // A size the kernel refuses for the run's /tmp: every prepared run fails, as one may for a moment on a busy host.
    const own = createCpythonExecutor({ diskMb: -1 });
    try {
      for (let n = 0; n < 3; n++) {
        const result = (await own.run({
          code: "print(1)",
          timeoutMs: 20_000,
          signal: new AbortController().signal,
        })) as RunOutcome;
        expect(result).toMatchObject({
          stdout: "",
          stderr: "The sandbox could not start the program: [Errno 22] mount /tmp: Invalid argument\n",
          exitCode: null,
        });
      }
    } finally {
      await own.close();
    }
  });

  it("a warm parent that dies ends its runs with an error, and the next run starts a new one", async () => {
    const bwraps = () =>
      processTree(process.pid).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("bwrap\0");
        } catch {
          return false;
        }
      });
    const before = new Set(bwraps());
    const own = createCpythonExecutor();
    try {
      expect(
        ((await own.run({ code: "print(1)", timeoutMs: 20_000, signal: new AbortController().signal })) as RunOutcome)
          .stdout,
      ).toBe("1\n");
      const running = own.run({
        code: "import time\ntime.sleep(30)",
        timeoutMs: 60_000,
        signal: new AbortController().signal,
      });
      // This executor's bubblewrap (its two processes), not the other tests' one.
      const parents = bwraps().filter((pid) => !before.has(pid));
      expect(parents.length).toBeGreaterThan(0);
      for (const pid of parents) process.kill(pid, "SIGKILL");
      await expect(running).rejects.toThrow(/stopped/);
      expect(
        ((await own.run({ code: "print(2)", timeoutMs: 20_000, signal: new AbortController().signal })) as RunOutcome)
          .stdout,
      ).toBe("2\n");
    } finally {
      await own.close();
    }
  });
});
