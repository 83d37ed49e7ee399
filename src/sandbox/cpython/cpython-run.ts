import { close, closeSync, constants, openSync } from "node:fs";
import { Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { collectOutput, memoryFailure, notify, type RunOutcome, type RunRequest } from "../executor.js";
import { withNote } from "../../contract/stderr-note.js";
import { childrenOf, hostPidOf } from "./namespace-pids.js";
import type { RunCgroup } from "./run-cgroups.js";
import { readRunFiles, type RunFileCaps } from "./run-directory.js";
import { givenFilesAfterRun, isRelativePath } from "../run-inputs.js";
import { errorMessage } from "../../contract/error-message.js";
import { failureFitsStderr } from "../../contract/failure-fits.js";

const descendants = (pid: number): number[] => [pid, ...childrenOf(pid).flatMap(descendants)];

/** What the warm parent says about one run: where its pipes are, then how it ended. Numbers only. */
export type RunMessage =
  | {
      type: "started";
      id: string;
      /** The run's PID in the warm parent's namespace. */
      pid: number;
      /** The warm parent's descriptors of the run's pipes and of its /mnt/data. */
      fds: { code: number; stdout: number; stderr: number; work: number };
    }
  | { type: "exit"; id: string; code: number | null; signal: string | null }
  /** No prepared run could take the program: each failed to start, the last for this reason. */
  | { type: "refused"; id: string; reason: string };

/** What one run needs of the executor. */
export interface RunContext {
  /** The warm parent's PID here. */
  zygotePid: number;
  send(message: { type: "run" | "opened" | "kill"; id: string }): void;
  /** The run's control group; null where the operator accepted per-process limits only. */
  cgroup: RunCgroup | null;
  caps: RunFileCaps;
  maxOutputChars: number;
  memoryLimitMb: number;
}

/**
 * Bytes of output one run may write, both streams together, before it is
 * stopped and its output no longer read: what is kept (up to four bytes a
 * character) and a flood's latest lines, and a bound on what a flood costs
 * this process, which serves every run.
 */
const outputBudget = (maxOutputChars: number) => Math.max(4 * 1024 * 1024, maxOutputChars * 4);

/**
 * One CPython run from the Node side. The warm parent makes the run's
 * process and its pipes, and tells their descriptor numbers; this process
 * opens them through /proc, puts the run in its control group, writes the
 * program straight to the run, reads its output straight from it, reads
 * its files from its /mnt/data once it has ended, and enforces its time limit
 * by killing it here, whatever the warm parent is doing.
 */
export class CpythonRun {
  readonly outcome: Promise<RunOutcome>;
  private resolve!: (outcome: RunOutcome) => void;
  private reject!: (error: Error) => void;
  private readonly collected: ReturnType<typeof collectOutput>;
  private started = performance.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private hostPid: number | null = null;
  private workFd: number | null = null;
  private streamsOpen = 0;
  private exit: { code: number | null; signal: string | null } | null = null;
  private timedOut = false;
  private killed = false;
  private startFailure: string | null = null;
  private bytesRead = 0;
  private floodNote: string | null = null;
  private readonly pipes: Socket[] = [];
  private settled = false;

  constructor(
    readonly id: string,
    private readonly request: RunRequest,
    private readonly context: RunContext,
  ) {
    this.collected = collectOutput(context.maxOutputChars, request.onOutput);
    this.outcome = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.outcome.catch(() => undefined);
    request.signal.addEventListener("abort", this.onAbort, { once: true });
  }

  private readonly onAbort = () => this.kill();

  /** Ends every process of the run from here: its control group, or its PID 1 (all its processes die with it). */
  kill(): void {
    if (this.exit || this.settled) return;
    this.killed = true;
    this.context.send({ type: "kill", id: this.id });
    if (this.context.cgroup) this.context.cgroup.kill();
    else if (this.hostPid !== null) {
      try {
        process.kill(this.hostPid, "SIGKILL");
      } catch {
        // Ended already.
      }
    }
  }

  onMessage(message: RunMessage): void {
    if (message.type === "started") this.onStarted(message);
    else if (message.type === "refused") {
      this.startFailure = `The sandbox could not start the program: ${message.reason}`;
      this.started = performance.now();
      this.exit = { code: null, signal: null };
      void this.finishIfDone();
    } else {
      clearTimeout(this.timer);
      this.exit = { code: message.code, signal: message.signal };
      void this.finishIfDone();
    }
  }

  /** The warm parent is gone, and its runs with it. */
  onZygoteExit(): void {
    this.fail(new Error("The CPython sandbox stopped in the middle of the run."));
  }

  private onStarted({ pid, fds }: Extract<RunMessage, { type: "started" }>) {
    const { zygotePid } = this.context;
    const opened: number[] = [];
    const reopen = (fd: number, flags: number) => {
      const own = openSync(`/proc/${zygotePid}/fd/${fd}`, flags);
      opened.push(own);
      return own;
    };
    try {
      this.hostPid = hostPidOf(zygotePid, pid, 1);
      if (this.hostPid === null) throw new Error("its process was not found");
      const code = reopen(fds.code, constants.O_WRONLY | constants.O_NONBLOCK);
      const stdout = reopen(fds.stdout, constants.O_RDONLY | constants.O_NONBLOCK);
      const stderr = reopen(fds.stderr, constants.O_RDONLY | constants.O_NONBLOCK);
      this.workFd = reopen(fds.work, constants.O_RDONLY | constants.O_DIRECTORY);
      this.read("stdout", stdout);
      this.read("stderr", stderr);
      void this.begin(code);
    } catch (error) {
      for (const fd of opened) if (fd !== this.workFd) closeSync(fd);
      this.refuse(error);
    } finally {
      this.context.send({ type: "opened", id: this.id });
    }
  }

  /** Puts the run in its group, then hands it its program and files: its time starts then. */
  private async begin(code: number) {
    const { cgroup } = this.context;
    try {
      // Everything the program starts is counted in its group. (A forked-twice run's
      // program process is already waiting below its first one.)
      if (cgroup) await Promise.all(descendants(this.hostPid!).map((member) => cgroup.add(member)));
    } catch (error) {
      closeSync(code);
      return this.refuse(error);
    }
    if (this.killed || this.settled) return closeSync(code);
    // The run writes its given files itself, as its own user, before its program starts: their bytes follow the program.
    // Newest first: where an older file clashes with a newer one (a folder where it was), the run keeps the newer.
    const given = (this.request.files ?? []).filter((file) => isRelativePath(file.name)).reverse();
    const program = Buffer.from(
      JSON.stringify({
        code: this.request.code,
        cpuSeconds: Math.ceil(this.request.timeoutMs / 1000) + 1,
        files: given.map((file) => ({ name: file.name, size: file.bytes.length })),
      }),
    );
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(program.length));
    const pipe = new Socket({ fd: code, readable: false, writable: true });
    pipe.on("error", () => undefined);
    pipe.end(Buffer.concat([length, program, ...given.map((file) => file.bytes)]));
    this.started = performance.now();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.kill();
    }, this.request.timeoutMs);
    notify(this.request.onStart);
  }

  /** The run could not be started: it is ended, and its result says why. */
  private refuse(error: unknown) {
    this.startFailure = `The sandbox could not start the program: ${errorMessage(error)}`;
    this.started = performance.now();
    this.kill();
  }

  private read(stream: "stdout" | "stderr", fd: number) {
    this.streamsOpen++;
    const pipe = new Socket({ fd, readable: true, writable: false });
    this.pipes.push(pipe);
    const decoder = new StringDecoder("utf8");
    // Each chunk costs its own length: the kept text holds the start and the latest characters.
    pipe.on("data", (chunk: Buffer) => {
      this.bytesRead += chunk.length;
      if (this.floodNote !== null) return;
      const budget = outputBudget(this.context.maxOutputChars);
      if (this.bytesRead > budget) {
        this.floodNote = `The program wrote more than ${Math.round(budget / 1024 / 1024)} MB of output and was stopped.`;
        this.kill();
        // Not a byte more is read: the program's next write fails or blocks until it is gone.
        for (const open of this.pipes) open.destroy();
        return;
      }
      this.collected.add(stream, decoder.write(chunk));
    });
    pipe.on("error", () => undefined);
    pipe.once("close", () => {
      this.collected.add(stream, decoder.end());
      this.streamsOpen--;
      void this.finishIfDone();
    });
  }

  private async finishIfDone() {
    if (!this.exit || this.streamsOpen > 0 || this.settled) return;
    this.settled = true;
    this.collected.close();
    const wallTimeMs = Math.round(performance.now() - this.started);
    this.request.signal.removeEventListener("abort", this.onAbort);
    const { cgroup, caps, memoryLimitMb } = this.context;
    let files: Pick<RunOutcome, "files" | "filesCut" | "filesRead" | "filesRemoved" | "failure"> = {
      files: [],
      filesCut: 0,
    };
    const given = this.request.files ?? [];
    if (this.workFd !== null) {
      const root = `/proc/self/fd/${this.workFd}`;
      try {
        // Before anything here reads them, which would count as the program's reading.
        const after = given.length ? await givenFilesAfterRun(root, given) : undefined;
        files = {
          ...(await readRunFiles(root, caps, given)),
          ...(after ? { filesRead: after.read, filesRemoved: after.removed } : {}),
        };
      } catch {
        // Whatever a run left, its result still comes: without files.
      } finally {
        // The last close tears down the run's tmpfs: on libuv's threads, not the event loop.
        close(this.workFd, () => undefined);
      }
    }
    const outOfMemory = cgroup?.outOfMemory() ?? false;
    cgroup?.release();
    const output = this.collected.output();
    const note = (text: string) => withNote(output.stderr, text);
    // Stopped here (time, Stop) or for memory by the kernel: the program did not end by itself. A
    // process of it that the kernel stopped while the program went on is told, not taken for its end.
    const stopped = this.killed || this.startFailure !== null || (outOfMemory && this.exit.signal === "SIGKILL");
    const memoryNote = stopped
      ? `The program used more than ${memoryLimitMb} MB of memory and was stopped.`
      : `A process of the program used more than ${memoryLimitMb} MB of memory and was stopped.`;
    // Facts of an exception the run's traceback does not end with are not the run's.
    if (files.failure !== undefined && !failureFitsStderr(files.failure, output.stderr)) delete files.failure;
    this.resolve({
      ...output,
      ...(outOfMemory ? { stderr: note(memoryNote) } : {}),
      ...(this.startFailure ? { stderr: note(this.startFailure) } : {}),
      ...(this.floodNote ? { stderr: note(this.floodNote) } : {}),
      exitCode: stopped ? null : this.exit.code,
      signal: stopped ? "SIGKILL" : this.exit.signal,
      wallTimeMs,
      timedOut: this.timedOut,
      truncated: this.collected.truncated(),
      ...files,
      // Stopped for memory: the facts say so, as they do for the program's own MemoryError.
      ...(outOfMemory && stopped ? { failure: memoryFailure(memoryNote) } : {}),
    });
  }

  private fail(error: Error) {
    if (this.settled) return;
    this.settled = true;
    this.collected.close();
    clearTimeout(this.timer);
    this.request.signal.removeEventListener("abort", this.onAbort);
    if (this.workFd !== null) close(this.workFd, () => undefined);
    this.context.cgroup?.kill();
    this.context.cgroup?.release();
    this.reject(error);
  }
}
