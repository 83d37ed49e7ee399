// Over 300 lines: the Node side of the CPython engine (the isolation probe,
// the warm parent's process and its line protocol, runs and their limits);
// the warm parent itself is cpython-zygote.py.

import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { collectOutput, notify, type Executor, type RunOutcome, type RunRequest } from "./executor.js";

export interface CpythonExecutorOptions {
  /**
   * The interpreter with the scientific packages.
   * @default `/usr/bin/python3` (Debian's)
   */
  python?: string;
  /**
   * bubblewrap.
   * @default `bwrap` on the PATH
   */
  bwrap?: string;
  /**
   * Characters kept per stream and run; the rest is cut and counted.
   * @default 1 000 000
   */
  maxOutputChars?: number;
  /**
   * Address space of one run's process, in MB (RLIMIT_AS): past it,
   * allocations fail with MemoryError. It includes the ~400 MB of the
   * libraries every run shares with the warm parent.
   * @default 1024
   */
  memoryLimitMb?: number;
  /**
   * Processes one run may have at once, itself included.
   * @default 16
   */
  maxProcesses?: number;
  /**
   * Size of each run's private /tmp and working directory, in MB.
   * @default 64
   */
  diskMb?: number;
  /**
   * Files a run may leave in its working directory (figures included); the rest are counted, not kept.
   * @default 10
   */
  maxFiles?: number;
  /**
   * Largest file kept, in MB.
   * @default 5
   */
  maxFileMb?: number;
  /**
   * All files of one run together, in MB.
   * @default 10
   */
  maxTotalFileMb?: number;
  /**
   * How a run's process is made: `clone`, straight into its namespaces (one
   * fork of the warm parent, where glibc's thread layout is recognised; else
   * as `fork-twice`), or `fork-twice`: fork, enter the namespaces, fork the
   * program. @default "clone"
   */
  runProcess?: "clone" | "fork-twice";
  /**
   * Runs one warm parent serves before a fresh one takes over. Runs made
   * from one parent share what was fixed when it started: the seed of
   * Python's string hashes and where its memory lies.
   * @default 500
   */
  renewAfterRuns?: number;
  /**
   * How long one warm parent serves before a fresh one takes over (see `renewAfterRuns`).
   * @default 600000 (10 minutes)
   */
  renewAfterMs?: number;
}

/** Whether the CPython engine can run here, and if not, why. */
export type CpythonAvailability = { available: true } | { available: false; reason: string };

const zygoteScript = fileURLToPath(new URL("./cpython-zygote.py", import.meta.url));

/** Read-only parts of the host the interpreter needs: /usr, and the /etc files the libraries read. */
const ETC_FILES = ["/etc/alternatives", "/etc/ld.so.cache", "/etc/matplotlibrc", "/etc/fonts"];

/**
 * The host user bubblewrap runs as. A harness started as root hands the
 * sandbox to `nobody`: the kernel does not count root's processes against
 * a run's process limit, and root on the host is what the run's uid maps to.
 */
const hostUser = () => (process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {});

function bwrapArgs(python: string, script: string[]): string[] {
  return [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--symlink",
    "usr/bin",
    "/bin",
    ...ETC_FILES.filter((file) => existsSync(file)).flatMap((file) => ["--ro-bind", file, file]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--dir",
    "/work",
    "--chdir",
    "/work",
    "--uid",
    "1000",
    "--gid",
    "1000",
    // The warm parent's environment is every run's: nothing of the host's.
    "--clearenv",
    "--setenv",
    "HOME",
    "/work",
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--setenv",
    "MPLBACKEND",
    "Agg",
    "--setenv",
    "MPLCONFIGDIR",
    "/tmp",
    "--setenv",
    "OPENBLAS_NUM_THREADS",
    "1",
    "--setenv",
    "OMP_NUM_THREADS",
    "1",
    "--setenv",
    "LANG",
    "C.UTF-8",
    ...script,
    // Nothing of bubblewrap's own tree is writable: a run writes only to its own /tmp, /work and /dev/shm.
    "--remount-ro",
    "/dev",
    "--remount-ro",
    "/",
    python,
    "-I",
    "-u",
  ];
}

/**
 * Finds out once whether bubblewrap and the interpreter work here, with a
 * run's own namespaces nested inside (a container may forbid them).
 * Takes about 100 ms.
 */
export function probeCpython(options: Pick<CpythonExecutorOptions, "python" | "bwrap"> = {}): CpythonAvailability {
  const python = options.python ?? "/usr/bin/python3";
  const bwrap = options.bwrap ?? "bwrap";
  if (process.platform !== "linux") return { available: false, reason: "the CPython engine needs Linux namespaces." };
  if (!existsSync(python)) return { available: false, reason: `${python} is not installed.` };
  // What a run needs: the libraries, and namespaces of its own inside bubblewrap's.
  const trial = [
    "import ctypes, os, numpy",
    "libc = ctypes.CDLL(None, use_errno=True)",
    "pid = os.fork()",
    "if pid == 0: os._exit(0 if libc.unshare(0x10000000 | 0x00020000 | 0x20000000 | 0x40000000) == 0 else 1)",
    "raise SystemExit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) and 'namespaces inside bubblewrap are not allowed')",
  ].join("\n");
  const result = spawnSync(bwrap, [...bwrapArgs(python, []), "-c", trial], {
    encoding: "utf8",
    timeout: 20_000,
    cwd: "/",
    ...hostUser(),
  });
  if (result.error) return { available: false, reason: `bubblewrap cannot be started (${result.error.message}).` };
  if (result.status !== 0) {
    const said = (result.stderr || "").trim().split("\n").at(-1) ?? "";
    return { available: false, reason: `bubblewrap or the interpreter refused: ${said || `exit ${result.status}`}` };
  }
  return { available: true };
}

type ZygoteMessage =
  | { type: "ready"; modules: string[]; python: string; forksPerRun: 1 | 2 }
  | { type: "started"; id: string }
  | { type: "output"; id: string; stream: "stdout" | "stderr"; text: string }
  | {
      type: "exit";
      id: string;
      code: number | null;
      signal: string | null;
      cut: { stdout: number; stderr: number };
      files: Array<{ name: string; mediaType: string; alt: string | null; data: string }>;
      filesCut: number;
    };

/** One warm parent: its bubblewrap process, whether it has loaded the stack, the runs it has now and has served. */
interface Zygote {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<unknown>;
  isReady: boolean;
  /** Its runs now, by id: where its messages go. */
  runs: Map<string, PendingRun>;
  served: number;
  startedAt: number;
}

interface PendingRun {
  onMessage(message: ZygoteMessage): void;
  onZygoteExit(): void;
}

/**
 * Runs Python in Debian's CPython, with numpy, pandas, matplotlib, scipy and
 * sympy. A warm parent inside bubblewrap (no network, read-only system, not
 * root, dies with the sandbox) has imported them once and forks a process
 * per run, which takes namespaces of its own, a private /tmp and working
 * directory, no /proc, resource limits and no capabilities before the
 * program starts: nothing a run does reaches another run or the host, and a
 * run starts in milliseconds with the whole stack loaded.
 */
export function createCpythonExecutor(options: CpythonExecutorOptions = {}): Executor {
  const python = options.python ?? "/usr/bin/python3";
  const bwrap = options.bwrap ?? "bwrap";
  const maxOutputChars = options.maxOutputChars ?? 1_000_000;
  const memoryLimitMb = options.memoryLimitMb ?? 1024;
  const maxProcesses = options.maxProcesses ?? 16;
  const diskMb = options.diskMb ?? 64;
  const maxFiles = options.maxFiles ?? 10;
  const maxFileMb = options.maxFileMb ?? 5;
  const maxTotalFileMb = options.maxTotalFileMb ?? 10;
  const renewAfterRuns = options.renewAfterRuns ?? 500;
  const renewAfterMs = options.renewAfterMs ?? 600_000;
  // The warm parent that takes new runs; its successor while that one starts; parents that finish their last runs.
  let zygote: Zygote | null = null;
  let successor: Zygote | null = null;
  const retiring = new Set<Zygote>();
  let renewals = 0;
  let modules: string[] = [];
  // 1: each run is cloned straight into its namespaces; 2: glibc's layout was not recognised, so fork, unshare, fork.
  let forksPerRun: 1 | 2 | null = null;
  let nextId = 0;
  let closed = false;

  const startZygote = (): Zygote => {
    const config = JSON.stringify({
      diskMb,
      maxFiles,
      maxFileBytes: maxFileMb * 1024 * 1024,
      maxTotalFileBytes: maxTotalFileMb * 1024 * 1024,
      memoryMb: memoryLimitMb,
      processes: maxProcesses,
      openFiles: 256,
      fileMb: diskMb,
      clone: (options.runProcess ?? "clone") === "clone",
    });
    // The script goes in through a descriptor: bubblewrap may run as a user who cannot read the app's folder.
    const script = openSync(zygoteScript, "r");
    const child = spawn(
      bwrap,
      [...bwrapArgs(python, ["--ro-bind-data", "3", "/sandbox/zygote.py"]), "/sandbox/zygote.py", config],
      { stdio: ["pipe", "pipe", "pipe", script], cwd: "/", ...hostUser() },
      // Its first three are pipes.
    ) as ChildProcessWithoutNullStreams;
    closeSync(script);
    let buffer = "";
    let stderr = "";
    const runs = new Map<string, PendingRun>();
    const ready = new Promise<{ modules: string[]; python: string }>((resolve, reject) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          let message: ZygoteMessage;
          try {
            message = JSON.parse(line) as ZygoteMessage;
          } catch {
            continue;
          }
          if (message.type === "ready") {
            modules = message.modules;
            forksPerRun = message.forksPerRun;
            record.isReady = true;
            resolve(message);
          } else runs.get(message.id)?.onMessage(message);
        }
      });
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
      child.on("error", reject);
      child.on("exit", (code, signal) => {
        if (zygote === record) zygote = null;
        if (successor === record) successor = null;
        retiring.delete(record);
        reject(
          new Error(
            `The CPython sandbox stopped (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").at(-1) ?? ""}`,
          ),
        );
        for (const run of runs.values()) run.onZygoteExit();
      });
    });
    ready.catch(() => undefined);
    const record: Zygote = { child, ready, isReady: false, runs, served: 0, startedAt: performance.now() };
    // A stdin write to a zygote that just died must not take the harness down.
    child.stdin.on("error", () => undefined);
    return record;
  };

  /** The warm parent for the next run: a fresh one takes over once the current one has served its share and the fresh one is ready. */
  const currentZygote = (): Zygote => {
    if (
      zygote &&
      !successor &&
      (zygote.served >= renewAfterRuns || performance.now() - zygote.startedAt >= renewAfterMs)
    )
      successor = startZygote();
    if (successor?.isReady && zygote) {
      retire(zygote);
      zygote = successor;
      successor = null;
      renewals++;
    }
    zygote ??= startZygote();
    return zygote;
  };

  /** A parent that takes no more runs ends once its last run has. */
  const retire = (old: Zygote) => {
    retiring.add(old);
    if (old.runs.size === 0) old.child.kill("SIGKILL");
  };

  const send = (child: ChildProcessWithoutNullStreams, message: unknown) => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };

  // Start at once: the imports take a couple of seconds, best spent before the first program.
  zygote = startZygote();

  return {
    async run({ code, timeoutMs, signal, onStart, onOutput }: RunRequest): Promise<RunOutcome> {
      if (closed) throw new Error("The Python executor is closed.");
      const parent = currentZygote();
      parent.served++;
      const { child, ready } = parent;
      await ready;
      const id = String(++nextId);
      const { output, cut, add } = collectOutput(maxOutputChars, onOutput);
      let started = performance.now();
      return new Promise<RunOutcome>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let timedOut = false;
        const done = (outcome: RunOutcome | Error) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          parent.runs.delete(id);
          if (retiring.has(parent) && parent.runs.size === 0) parent.child.kill("SIGKILL");
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        };
        const kill = () => send(child, { type: "kill", id });
        const onAbort = () => kill();
        signal.addEventListener("abort", onAbort, { once: true });
        parent.runs.set(id, {
          onMessage(message) {
            if (message.type === "started") {
              started = performance.now();
              timer = setTimeout(() => {
                timedOut = true;
                kill();
              }, timeoutMs);
              notify(onStart);
            } else if (message.type === "output") {
              add(message.stream, message.text);
            } else if (message.type === "exit") {
              const killed = timedOut || signal.aborted;
              done({
                ...output,
                exitCode: killed ? null : message.code,
                signal: killed ? "SIGKILL" : message.signal,
                wallTimeMs: Math.round(performance.now() - started),
                timedOut,
                truncated: { stdout: cut.stdout + message.cut.stdout, stderr: cut.stderr + message.cut.stderr },
                files: message.files.map((file) => ({
                  name: file.name,
                  mediaType: file.mediaType,
                  ...(file.alt ? { alt: file.alt } : {}),
                  bytes: Buffer.from(file.data, "base64"),
                })),
                filesCut: message.filesCut,
              });
            }
          },
          onZygoteExit() {
            done(new Error("The CPython sandbox stopped in the middle of the run."));
          },
        });
        if (signal.aborted)
          return void done({ ...output, exitCode: null, signal: "SIGKILL", wallTimeMs: 0, timedOut: false });
        send(child, {
          type: "run",
          id,
          code,
          limits: { cpuSeconds: Math.ceil(timeoutMs / 1000) + 1, outputChars: maxOutputChars },
        });
      });
    },
    health() {
      return {
        executor: "cpython",
        python: { path: python, modules, forksPerRun },
        // Fresh warm parents that took over so far, after `renewAfterRuns` runs or `renewAfterMs`.
        warmParent: { renewals, renewAfterRuns, renewAfterMs },
        isolation: {
          network: "none: a network namespace of its own per run",
          processes: "a PID namespace of its own per run; the program is its PID 1",
          filesystem: "read-only system; a private /tmp, working directory, /dev/shm and /dev/pts per run; no /proc",
          user: "uid 1000 in a user namespace of its own, no capabilities",
          diesWithParent: true,
          warnings: [],
        },
        limits: { memoryLimitMb, maxProcesses, diskMb, maxOutputChars, maxFiles, maxFileMb, maxTotalFileMb },
      };
    },
    async close() {
      closed = true;
      for (const parent of [zygote, successor, ...retiring]) parent?.child.kill("SIGKILL");
      zygote = null;
      successor = null;
      retiring.clear();
    },
  };
}
