// Over 300 lines: the Node side of the CPython engine's warm parent (its
// process, line protocol, renewal, health); one run's side is cpython-run.ts,
// the warm parent itself cpython-zygote.py.

import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { DESCRIBE_FIGURE_PY } from "../../server/figure-words.js";
import { RUN_PROGRAM_PY } from "../../contract/run-program-py.js";
import { bwrapArgs, hostUser, RUN_USERS } from "./cpython-sandbox-command.js";
import { CpythonRun, type RunMessage } from "./cpython-run.js";
import type { Executor, RunOutcome, RunRequest } from "../executor.js";
import { createLineSplitter } from "../../server/line-splitter.js";
import { hostPidOf } from "./namespace-pids.js";
import { probeRunCgroups, type RunCgroups } from "./run-cgroups.js";
import { errorMessage } from "../../contract/error-message.js";

export { probeCpython, type CpythonAvailability } from "./cpython-sandbox-command.js";

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
   * Memory of one whole run, in MB: every process of it together, memory
   * held in memfd and tmpfs files included (its control group); past it, the
   * run is stopped and says so. Each process's address space has the same
   * bound (RLIMIT_AS, which includes the ~400 MB of libraries shared with the
   * warm parent), so a large allocation usually fails first with MemoryError.
   * @default 1024
   */
  memoryLimitMb?: number;
  /**
   * Processes and threads one run may have at once, itself included (its control group).
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
  /**
   * Run without a control group where none can be made, with only
   * per-process limits: then a run's memory held in memfd or tmpfs files is
   * not bounded, and neither is the sum over its processes. Without this,
   * the executor refuses to start on such a host.
   * @default false
   */
  allowPerProcessMemoryLimit?: boolean;
  /**
   * Where the cgroup hierarchy is mounted.
   * @default "/sys/fs/cgroup"
   */
  cgroupRoot?: string;
  /**
   * Told once at start what isolation is missing (with `allowPerProcessMemoryLimit`, the control group).
   * @default console.warn
   */
  onWarning?: (message: string) => void;
}

/** Whether runs get host users of their own: only a harness started as root can map them. */
const runUsersNow = () => hostUser().uid !== undefined;

/** The warm parent's script, with the Python every runner shares put in at its `#@name` lines. */
const zygoteScript = (() => {
  let text = readFileSync(fileURLToPath(new URL("./cpython-zygote.py", import.meta.url)), "utf8");
  for (const [name, source] of [
    ["describe_figure", DESCRIBE_FIGURE_PY],
    ["run_program", RUN_PROGRAM_PY],
  ]) {
    if (!text.includes(`\n#@${name}\n`)) throw new Error(`cpython-zygote.py lost its #@${name} line`);
    text = text.replace(`\n#@${name}\n`, source!);
  }
  return text;
})();

/**
 * Writes the sandbox's user map once bubblewrap says its process: its own
 * host user as 0, then the range each run takes a user from. Only a process
 * outside the sandbox with the right to (root) can map a range.
 */
function mapRunUsers(child: ChildProcess, ownUser: number, onFailure: (reason: string) => void) {
  const stdio = child.stdio as unknown as Array<Readable & Writable>;
  const [block, info] = [stdio[4]!, stdio[5]!];
  let said = "";
  let mapped = false;
  info.setEncoding("utf8");
  info.on("data", (chunk: string) => {
    said += chunk;
    const pid = /"child-pid":\s*(\d+)/.exec(said)?.[1];
    if (!pid || mapped) return;
    mapped = true;
    const map = `0 ${ownUser} 1\n1 ${RUN_USERS.hostBase} ${RUN_USERS.count}\n`;
    try {
      writeFileSync(`/proc/${pid}/uid_map`, map);
      writeFileSync(`/proc/${pid}/gid_map`, map);
      block.end("1");
    } catch (error) {
      onFailure(`its users could not be mapped (${errorMessage(error)})`);
      child.kill("SIGKILL");
    }
  });
  info.on("error", () => undefined);
  block.on("error", () => undefined);
}

type ZygoteMessage = { type: "ready"; pid: number; modules: string[]; python: string; forksPerRun: 1 | 2 } | RunMessage;

/** One warm parent: its bubblewrap process, whether it has loaded the stack, the runs it has now and has served. */
interface Zygote {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<unknown>;
  isReady: boolean;
  /** Its PID here, once it is ready. */
  pid: number;
  /** Its runs now, by id: where its messages go. */
  runs: Map<string, CpythonRun>;
  served: number;
  startedAt: number;
}

/**
 * Runs Python in Debian's CPython, with numpy, pandas, matplotlib, scipy and
 * sympy. A warm parent inside bubblewrap (no network, read-only system, not
 * root, dies with the sandbox) has imported them once; a process forked
 * from it before any run clones a process per run, which takes namespaces
 * of its own, a private /tmp and working directory, no /proc, resource
 * limits, a control group, a seccomp filter and no capabilities before the
 * program starts. The warm parent never sees
 * a program, its output or its files: this process exchanges them with the
 * run directly. Nothing a run does reaches another run or the host, and a
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
  const caps = {
    maxFiles,
    maxFileBytes: maxFileMb * 1024 * 1024,
    maxTotalFileBytes: maxTotalFileMb * 1024 * 1024,
  };
  const cgroupProbe = probeRunCgroups({ root: options.cgroupRoot });
  if (!cgroupProbe.available && !options.allowPerProcessMemoryLimit)
    throw new Error(
      `The CPython engine needs a control group per run to bound its memory and processes, and none can be made here (${cgroupProbe.reason}). Run the sandbox as root or in a delegated cgroup v2, or set allowPerProcessMemoryLimit to accept per-process limits only.`,
    );
  const cgroups: RunCgroups | null = cgroupProbe.available ? cgroupProbe.cgroups : null;
  const warnings = cgroups
    ? cgroups.cpu
      ? []
      : [
          "Runs are not CPU groups of their own (the cpu controller cannot be written here): a program that starts many processes takes a larger share of the cores from the other runs.",
        ]
    : [
        `No control group per run (${cgroupProbe.available ? "" : cgroupProbe.reason}): memory is bounded per process only, and memory held in memfd or tmpfs files is not bounded.`,
      ];
  for (const warning of warnings)
    (options.onWarning ?? ((message: string) => console.warn(`[execute-code-ui sandbox] ${message}`)))(warning);
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
    const config = {
      diskMb,
      memoryMb: memoryLimitMb,
      processes: maxProcesses,
      openFiles: 64,
      fileMb: diskMb,
      clone: (options.runProcess ?? "clone") === "clone",
    };
    // The script goes in through a pipe: bubblewrap may run as a user who cannot read the app's folder.
    const user = hostUser();
    const runUsers = runUsersNow();
    const child = spawn(
      bwrap,
      [
        ...bwrapArgs(python, ["--ro-bind-data", "3", "/sandbox/zygote.py"], runUsers),
        "/sandbox/zygote.py",
        JSON.stringify({ ...config, slots: runUsers }),
      ],
      { stdio: ["pipe", "pipe", "pipe", "pipe", ...(runUsers ? (["pipe", "pipe"] as const) : [])], cwd: "/", ...user },
      // Its first three are pipes.
    ) as ChildProcessWithoutNullStreams;
    // A sandbox that failed to start reads none of it: that is told by its exit, not by this pipe.
    (child.stdio[3] as Writable).on("error", () => undefined).end(zygoteScript);
    if (runUsers) mapRunUsers(child, user.uid!, (reason) => (stderr = reason));
    let stderr = "";
    const runs = new Map<string, CpythonRun>();
    const ready = new Promise<void>((resolve, reject) => {
      const lines = createLineSplitter((line) => {
        let message: ZygoteMessage;
        try {
          message = JSON.parse(line) as ZygoteMessage;
        } catch {
          return;
        }
        if (message.type === "ready") {
          const pid = child.pid !== undefined ? hostPidOf(child.pid, message.pid) : null;
          if (pid === null) {
            stderr = "its warm parent's process could not be found";
            child.kill("SIGKILL");
            return;
          }
          record.pid = pid;
          modules = message.modules;
          forksPerRun = message.forksPerRun;
          record.isReady = true;
          resolve();
        } else runs.get(message.id)?.onMessage(message);
      });
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => lines.push(chunk));
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
    const record: Zygote = { child, ready, isReady: false, pid: 0, runs, served: 0, startedAt: performance.now() };
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
    async run(request: RunRequest): Promise<RunOutcome> {
      if (closed) throw new Error("The Python executor is closed.");
      const parent = currentZygote();
      parent.served++;
      await parent.ready;
      const id = String(++nextId);
      const cgroup = cgroups?.acquire({ memoryBytes: memoryLimitMb * 1024 * 1024, processes: maxProcesses });
      const run = new CpythonRun(id, request, {
        zygotePid: parent.pid,
        send: (message) => send(parent.child, message),
        cgroup: cgroup ?? null,
        caps,
        maxOutputChars,
        memoryLimitMb,
      });
      parent.runs.set(id, run);
      const forget = () => {
        parent.runs.delete(id);
        if (retiring.has(parent) && parent.runs.size === 0) parent.child.kill("SIGKILL");
      };
      run.outcome.then(forget, forget);
      if (request.signal.aborted) run.kill();
      send(parent.child, { type: "run", id });
      return run.outcome;
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
          user: `uid 1000 in a user namespace of its own${runUsersNow() ? ", a host user of its own per run" : ""}, no capabilities, no further namespaces (seccomp)`,
          resources: cgroups
            ? `a control group (${cgroups.version}) per run: memory and processes of the whole run${cgroups.cpu ? ", and an equal share of the cores whatever it starts" : ""}`
            : "per-process limits only (RLIMIT_AS, RLIMIT_NPROC): no control group could be made",
          warmParent: "never receives a program, its output or its files: the server exchanges them with the run",
          diesWithParent: true,
          warnings,
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
      cgroups?.close();
    },
  };
}
