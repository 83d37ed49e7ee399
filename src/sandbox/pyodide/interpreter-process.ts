import { failureFitsStderr } from "../../contract/failure-fits.js";
import { withNote } from "../../contract/stderr-note.js";
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import {
  collectOutput,
  memoryFailure,
  notify,
  type OutputStream,
  type RunOutcome,
  type RunRequest,
} from "../executor.js";
import { inheritedDescriptors, sandboxStdio } from "./inherited-descriptors.js";
import { createLineSplitter } from "../../server/line-splitter.js";
import { processTreeRss } from "./process-memory.js";
import { mediaTypeOfName } from "../../server/files/media-type.js";
import { isRelativePath } from "../run-inputs.js";
import { skippedOutput } from "../../contract/truncate.js";

// What this process was handed without close-on-exec: read once, replaced by /dev/null in every interpreter.
let inherited: number[] | null = null;

type Message =
  | { type: "ready" }
  | { type: "output"; stream: OutputStream; text: string; skipped?: unknown }
  | { type: "end"; stream: OutputStream; text: string; written: unknown }
  | {
      type: "files";
      files: Array<{ name: string; mediaType: string; data: string }>;
      filesCut: number;
      filesRead?: string[];
      filesRemoved?: string[];
    }
  | { type: "done"; exitCode: number; wallTimeMs: number; failure?: unknown };

export interface InterpreterLimits {
  /** Characters kept per stream; past them the interpreter sends only the latest, and counts the rest. */
  maxOutputChars: number;
  /** The files a run may leave: their number, each one's size and all together, in bytes. */
  files: { maxFiles: number; maxFileBytes: number; maxTotalFileBytes: number };
  /** Resident memory of the whole process tree, watched while a program runs. */
  memoryLimitBytes: number | null;
  /** For the message when the JavaScript heap runs out. */
  jsHeapMb: number;
}

type Ending =
  | { kind: "done"; message: Extract<Message, { type: "done" }> }
  | { kind: "timeout" | "abort" }
  | { kind: "memory" }
  | { kind: "protocol"; reason: string }
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null };

const MEMORY_POLL_MS = 100;

const INTERPRETER_MESSAGES = new Set<unknown>(["ready", "output", "end", "files", "done"]);

/** The interpreter's list of files, checked against the caps again: it is read, not trusted. */
function readFiles(
  message: Extract<Message, { type: "files" }>,
  caps: InterpreterLimits["files"],
  given: NonNullable<RunRequest["files"]>,
): Pick<RunOutcome, "files" | "filesCut" | "filesRead" | "filesRemoved"> {
  const listed = Array.isArray(message.files) ? message.files : [];
  const files: NonNullable<RunOutcome["files"]> = [];
  let total = 0;
  for (const file of listed.slice(0, caps.maxFiles)) {
    // A program can reach its interpreter's JavaScript: names are checked and types are this side's.
    if (typeof file?.name !== "string" || typeof file.data !== "string") continue;
    if (file.name.length > 1024 || !isRelativePath(file.name)) continue;
    const bytes = Buffer.from(file.data, "base64");
    if (bytes.length > caps.maxFileBytes || total + bytes.length > caps.maxTotalFileBytes) continue;
    total += bytes.length;
    files.push({ name: file.name, mediaType: mediaTypeOfName(file.name), bytes });
  }
  const filesCut = (Number.isInteger(message.filesCut) ? message.filesCut : 0) + listed.length - files.length;
  const read = new Set(Array.isArray(message.filesRead) ? message.filesRead : []);
  const removed = new Set(Array.isArray(message.filesRemoved) ? message.filesRemoved : []);
  const names = given.map((file) => file.name);
  return {
    files,
    filesCut,
    ...(given.length
      ? { filesRead: names.filter((name) => read.has(name)), filesRemoved: names.filter((name) => removed.has(name)) }
      : {}),
  };
}

/**
 * One sandbox process from the parent's side: it starts, says it is ready,
 * runs one program, and is killed whatever happens. What it writes is read
 * within a budget, so a process that floods its pipe is stopped instead of
 * filling the parent's memory.
 */
export class InterpreterProcess {
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  /** The interpreter's messages: fd 3, which only its own code writes. */
  private readonly messages: Readable;
  private readonly listeners = new Set<(message: Message) => void>();
  private readonly exitListeners = new Set<(code: number | null, signal: NodeJS.Signals | null) => void>();
  private stderrTail = "";
  private received = 0;
  private lines: ReturnType<typeof createLineSplitter> | null = null;
  private used = false;
  exited = false;
  state: "starting" | "ready" | "running" | "ended" = "starting";

  constructor(
    command: { command: string; args: string[] },
    private readonly limits: InterpreterLimits,
  ) {
    inherited ??= inheritedDescriptors();
    this.child = spawn(command.command, command.args, { env: {}, stdio: sandboxStdio(inherited) }) as ChildProcess;
    // A program's output is JSON-escaped (at most 6 bytes a character) in two streams, its files base64, plus
    // framing; past its cap, each stream's latest characters a few times a second (well under 1 MB a second).
    const budget = limits.maxOutputChars * 12 + Math.ceil(limits.files.maxTotalFileBytes * 1.4) + 1024 * 1024;
    const spawned = performance.now();
    const allowed = () => budget + Math.ceil((performance.now() - spawned) / 1000) * 1024 * 1024;
    const lines = createLineSplitter((line) => {
      if (this.exited) return;
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        return this.violation("it wrote a line that is not JSON");
      }
      // What only this side may say (a protocol violation) never comes from the interpreter.
      if (!INTERPRETER_MESSAGES.has(message?.type)) return this.violation("it sent a message of no known type");
      for (const listener of this.listeners) listener(message);
    });
    this.lines = lines;
    this.messages = this.child.stdio[3] as Readable;
    this.messages.setEncoding("utf8").on("data", (chunk: string) => {
      this.received += chunk.length;
      if (this.received > allowed()) return this.violation("it wrote more than its output budget");
      lines.push(chunk);
    });
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    this.child.stdin!.on("error", () => undefined);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      this.exited = true;
      this.state = "ended";
      for (const listener of [...this.exitListeners]) listener(code, signal);
      this.exitListeners.clear();
    };
    this.child.once("exit", onExit);
    this.child.once("error", () => onExit(null, null));
    this.ready = new Promise((resolve, reject) => {
      const stop = this.on((message) => {
        if (message.type !== "ready") return;
        stop();
        stopExit();
        if (this.state === "starting") this.state = "ready";
        resolve();
      });
      const stopExit = this.onExit((code, signal) => {
        stop();
        reject(
          new Error(`The Python sandbox process exited while starting (${signal ?? code}): ${this.stderrTail.trim()}`),
        );
      });
    });
    this.ready.catch(() => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  on(listener: (message: Message) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Ends the process and everything it started (unshare takes its namespace down with it). */
  kill(): void {
    this.exited = true;
    this.state = "ended";
    this.child.kill("SIGKILL");
  }

  private violation(reason: string): void {
    this.messages.removeAllListeners("data");
    this.lines?.reset();
    for (const listener of this.listeners) listener({ type: "protocol-violation", reason } as never);
    this.kill();
  }

  /** Runs one program; the process is gone when this settles. */
  run({ code, timeoutMs, signal, onStart, onOutput, files: given = [] }: RunRequest): Promise<RunOutcome> {
    if (this.used) throw new Error("An interpreter runs one program only.");
    this.used = true;
    this.state = "running";
    const started = performance.now();
    notify(onStart);
    const { maxOutputChars, memoryLimitBytes } = this.limits;
    const collected = collectOutput(maxOutputChars, onOutput);
    const { add } = collected;
    let files: Pick<RunOutcome, "files" | "filesCut" | "filesRead" | "filesRemoved"> = {};

    return new Promise<RunOutcome>((resolve) => {
      let settled = false;
      const finish = (ending: Ending) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(memoryWatch);
        collected.close();
        signal.removeEventListener("abort", onAbort);
        stopListening();
        stopExit();
        this.kill();
        const outcome = this.outcome(ending, collected, Math.round(performance.now() - started));
        // Only a run that ended by itself gives its files, as in the CPython engine.
        resolve(ending.kind === "done" ? { ...outcome, ...files } : outcome);
      };
      const onAbort = () => finish({ kind: "abort" });
      const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
      const memoryWatch = setInterval(() => {
        const rss = memoryLimitBytes && this.child.pid ? processTreeRss(this.child.pid) : null;
        if (rss !== null && memoryLimitBytes && rss > memoryLimitBytes) finish({ kind: "memory" });
      }, MEMORY_POLL_MS);
      const stopListening = this.on((message) => {
        const m = message as Message | { type: "protocol-violation"; reason: string };
        if (m.type === "output" && (m.stream === "stdout" || m.stream === "stderr") && typeof m.text === "string") {
          // Past its cap the interpreter sends only the latest characters, with what it skipped.
          add(m.stream, m.text, skippedOutput(m.skipped));
        } else if (m.type === "end" && (m.stream === "stdout" || m.stream === "stderr") && typeof m.text === "string") {
          // All it wrote, counted as a skip is: characters, and line breaks among them.
          const written = skippedOutput(m.written);
          if (written) collected.end(m.stream, m.text, written);
        } else if (m.type === "files") {
          files = readFiles(m, this.limits.files, given);
        } else if (m.type === "done") {
          finish({ kind: "done", message: m });
        } else if (m.type === "protocol-violation") {
          finish({ kind: "protocol", reason: m.reason });
        }
      });
      const stopExit = this.onExit((exitCode, exitSignal) =>
        finish({ kind: "exit", code: exitCode, signal: exitSignal }),
      );
      if (this.exited) return finish({ kind: "exit", code: null, signal: null });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const inputs = given.map((file) => ({ name: file.name, data: Buffer.from(file.bytes).toString("base64") }));
      this.child.stdin!.write(`${JSON.stringify({ code, files: inputs })}\n`);
    });
  }

  private outcome(ending: Ending, collected: ReturnType<typeof collectOutput>, elapsedMs: number): RunOutcome {
    const output = collected.output();
    const cut = collected.truncated();
    const killed = { exitCode: null, signal: "SIGKILL", wallTimeMs: elapsedMs, timedOut: false };
    const note = (text: string) => withNote(output.stderr, text);
    const base = { ...output, truncated: cut };
    switch (ending.kind) {
      case "done": {
        const { exitCode, wallTimeMs, failure } = ending.message;
        const fits = failureFitsStderr(failure, output.stderr);
        return { ...base, exitCode, signal: null, wallTimeMs, timedOut: false, ...(fits ? { failure } : {}) };
      }
      case "timeout":
        return { ...base, ...killed, timedOut: true };
      case "abort":
        return { ...base, ...killed };
      case "memory": {
        const mb = Math.round((this.limits.memoryLimitBytes ?? 0) / 1024 / 1024);
        const said = `The program used more than ${mb} MB of memory and was stopped.`;
        return { ...base, ...killed, stderr: note(said), failure: memoryFailure(said) };
      }
      case "protocol":
        return { ...base, ...killed, stderr: note(`The sandbox stopped the interpreter: ${ending.reason}.`) };
      case "exit": {
        const heap = /heap limit|heap out of memory|Allocation failed/i.test(this.stderrTail);
        return {
          ...base,
          ...killed,
          signal: ending.signal ?? null,
          stderr: note(
            heap
              ? `The program ran out of memory (the ${this.limits.jsHeapMb} MB JavaScript heap) and was stopped.`
              : `The Python interpreter stopped unexpectedly (${ending.signal ?? ending.code}).`,
          ),
        };
      }
    }
  }
}
