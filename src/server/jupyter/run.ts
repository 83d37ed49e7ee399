// One program on a connected kernel, and how a kernel that cannot be had is told.
import { failureFitsStderr } from "../../contract/failure-fits.js";
import { readFailure, type ExecuteCodeFailure } from "../../contract/failure.js";
import type { ExecuteCodeResult } from "../../contract/index.js";
import { CappedText, truncationOf } from "../../contract/truncate.js";
import { uniqueFileName } from "../../contract/file-name.js";
import {
  EXIT_TYPE,
  figureOf,
  MAX_FIGURE_BYTES,
  MAX_FIGURES,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_RUN_FIGURE_BYTES,
  MAX_RUN_FILE_BYTES,
  runnerCell,
  writtenFilesOf,
  type Figure,
  type WrittenFile,
} from "./runner.js";
import { mediaTypeOfName, SHOWN_IMAGES } from "../files/media-type.js";
import type { HeldFile, RunFileHolder } from "../files/run-file-holder.js";
import { readRetryAfterMs } from "../http/retry-after.js";
import {
  outputSoFar,
  sandboxBusy,
  sandboxError,
  type SandboxEvent,
  type SandboxOutcome,
  type SandboxRunRequest,
} from "../sandbox.js";

/** Why a kernel could not be had, as a result the model can explain: the server's answer, or the network's. */
export async function startFailure(error: unknown): Promise<SandboxOutcome> {
  const response = (error as { response?: Response }).response;
  if (response instanceof Response) {
    if (response.status === 401 || response.status === 403)
      return sandboxError(
        "sandbox_unauthorized",
        `The Jupyter server refused the request (HTTP ${response.status}). This is a set-up problem on the server (its token), not a problem with the program.`,
      );
    if (response.status === 429 || response.status === 503)
      return sandboxBusy(
        "The Jupyter server has no room for another Python kernel right now.",
        readRetryAfterMs(response.headers.get("retry-after"), undefined),
      );
    return sandboxError(
      "sandbox_failed",
      `The Jupyter server could not start a Python kernel (HTTP ${response.status}). The program did not run; trying again later can help.`,
    );
  }
  return sandboxError(
    "sandbox_unavailable",
    "The Jupyter server cannot be reached right now, so the program did not run. Try again in a minute.",
  );
}

type KernelMessage = { header: { msg_type: string }; content: Record<string, unknown> };
export type Services = typeof import("@jupyterlab/services");
export type Connection = InstanceType<Services["KernelConnection"]>;

/** A kernel of this sandbox: its connection, and the run it is doing (told if the kernel goes). */
export interface Kernel {
  connection: Connection;
  /** Shuts its process down on the server; the promise is that request's end (never a rejection). */
  shutDown(): Promise<void>;
  /** Whether the server still has it: one shut down from outside (culled, deleted) tells its connection nothing. */
  stillThere(): Promise<boolean>;
  /** Why it can run nothing more (its connection lost, its process dead), once it cannot. */
  lost: string | null;
  onLost: ((why: string) => void) | null;
}

/** How long an interrupted program has to end before its kernel is given up. */
const INTERRUPT_GRACE_MS = 3000;

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/**
 * One program on a connected kernel: its output as it comes, then its
 * outcome. Throws the abort's reason on Stop or the time limit; with
 * `interrupted`, it first interrupts the kernel and, if the runner then
 * ends within a few seconds, tells how many threads and processes the
 * program left (so that a chat's kernel, and its variables, may stay).
 */
export async function* execute(
  kernel: Kernel,
  request: SandboxRunRequest,
  holder: RunFileHolder,
  interrupted?: (leftRunning: number) => void,
): AsyncGenerator<SandboxEvent, { outcome: SandboxOutcome; leftRunning: number }> {
  // What the kernel says is taken in as it comes, within the caps: however fast a program prints,
  // this holds its capped output and at most one of each signal below.
  const stdout = new CappedText(request.limits.stdout);
  const stderr = new CappedText(request.limits.stderr);
  let exitCode: number | null = null;
  let failure: ExecuteCodeFailure | undefined;
  // Threads and processes the program left running; unknown (-1) when the runner did not say.
  let leftRunning = -1;
  let exitsSeen = 0;
  const figures: Figure[] = [];
  let figureBytes = 0;
  let figuresCut = 0;
  const written: WrittenFile[] = [];
  let writtenBytes = 0;
  let writtenCut = 0;
  const roomForWritten = (bytes: number) => {
    if (written.length >= MAX_FILES || bytes > MAX_FILE_BYTES || writtenBytes + bytes > MAX_RUN_FILE_BYTES)
      return false;
    writtenBytes += bytes;
    return true;
  };
  const signals = new EventQueue<"output" | "aborted" | { ended: string }>();
  let outputWaiting = false;
  const take = (message: KernelMessage) => {
    const { msg_type } = message.header;
    if (msg_type === "stream") {
      const { name, text } = message.content as { name?: string; text?: string };
      if (typeof text !== "string") return;
      (name === "stderr" ? stderr : stdout).add(text);
      if (!outputWaiting) {
        outputWaiting = true;
        signals.push("output");
      }
    } else if (msg_type === "display_data" || msg_type === "execute_result") {
      const data = (message.content.data ?? {}) as Record<string, unknown>;
      const exit = data[EXIT_TYPE] as { code?: unknown; left?: unknown; failure?: unknown } | undefined;
      if (exit && typeof exit.code === "number") exitCode = exit.code;
      if (exit && exitsSeen === 0) failure = readFailure(exit.failure);
      // The runner says it once. A second one is the program's (it can publish the runner's type too): what
      // it left running is then unknown, and its chat's kernel is not kept.
      if (exit) leftRunning = exitsSeen++ === 0 && isCount(exit.left) ? exit.left : -1;
      // Past the count or the bytes a run may leave, a figure is counted, not decoded.
      const room = figures.length < MAX_FIGURES ? Math.min(MAX_FIGURE_BYTES, MAX_RUN_FIGURE_BYTES - figureBytes) : -1;
      const figure = figureOf(data, room);
      if (figure === "too big") figuresCut++;
      else if (figure) {
        figures.push(figure);
        figureBytes += figure.bytes.length;
      }
      const files = writtenFilesOf(data, roomForWritten);
      if (files) {
        written.push(...files.files);
        writtenCut += files.cut;
      }
    }
  };
  /** Interrupts the kernel and waits, a little, for the runner to end and say what the program left. */
  const interrupt = async () => {
    await kernel.connection.interrupt().catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), INTERRUPT_GRACE_MS)));
    try {
      for (;;) {
        const next = await Promise.race([signals.next(), late]);
        if (next === "late") return;
        if (typeof next === "object") {
          if (!next.ended && exitCode !== null && leftRunning >= 0) interrupted?.(leftRunning);
          return;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  };
  const onAbort = () => signals.push("aborted");
  request.signal.addEventListener("abort", onAbort, { once: true });
  kernel.onLost = (why) => signals.push({ ended: why });
  try {
    if (request.signal.aborted) throw request.signal.reason;
    if (kernel.lost) return { outcome: sandboxError("sandbox_failed", kernel.lost), leftRunning };
    const future = kernel.connection.requestExecute(
      { code: runnerCell(request.code), allow_stdin: false, store_history: false, stop_on_error: true },
      true,
    );
    future.onIOPub = (message) => take(message as unknown as KernelMessage);
    future.done.then(
      () => signals.push({ ended: "" }),
      () => signals.push({ ended: "The Python kernel did not finish the run." }),
    );
    yield { kind: "started" };
    const started = performance.now();
    for (;;) {
      const signal = await signals.next();
      if (signal === "aborted") {
        if (interrupted) await interrupt();
        throw request.signal.reason;
      }
      if (signal === "output") {
        outputWaiting = false;
        yield outputSoFar(stdout, stderr);
        continue;
      }
      if (signal.ended) return { outcome: sandboxError("sandbox_failed", signal.ended), leftRunning };
      break;
    }
    const wallTimeMs = Math.round(performance.now() - started);
    // The files it wrote by their names, its figures beside them under names of their own.
    const taken = new Set(written.map((file) => file.name));
    const named: Array<HeldFile & Partial<Pick<Figure, "alt" | "width" | "height">>> = [
      ...written.map((file) => ({ ...file, mediaType: mediaTypeOfName(file.name) })),
      ...figures.map((figure, n) => {
        const name = uniqueFileName(`figure-${n + 1}.png`, taken);
        taken.add(name);
        return { ...figure, name, mediaType: "image/png" };
      }),
    ];
    const held = holder.keep(request, named);
    const files = held.map((file) => ({
      name: file.name,
      mediaType: file.mediaType,
      size: file.bytes.length,
      kind: SHOWN_IMAGES.has(file.mediaType) ? ("image" as const) : ("file" as const),
      ...(file.alt ? { alt: file.alt } : {}),
      ...(file.width && file.height ? { width: file.width, height: file.height } : {}),
      ref: file.ref,
    }));
    const cut = figuresCut + writtenCut + named.length - held.length;
    const result: ExecuteCodeResult = {
      status: "completed",
      // No exit said: the runner itself did not finish (the kernel's own error).
      exitCode: exitCode ?? 1,
      signal: null,
      stdout: stdout.text,
      stderr: stderr.text,
      wallTimeMs,
      truncated: truncationOf(stdout.kept(), stderr.kept()),
      ...(files.length ? { files } : {}),
      ...(cut ? { filesCut: cut } : {}),
      ...(failure && exitCode && failureFitsStderr(failure, stderr.text) ? { failure } : {}),
    };
    return { outcome: { ok: true, result }, leftRunning };
  } finally {
    request.signal.removeEventListener("abort", onAbort);
    kernel.onLost = null;
  }
}

/** Callbacks turned into something to await, in order. */
class EventQueue<T> {
  private items: T[] = [];
  private waiting: ((item: T) => void) | null = null;

  push(item: T): void {
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = null;
      wake(item);
    } else this.items.push(item);
  }

  next(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}
