import { kernelPackages } from "./cells.js";
import { giveFiles } from "./given-files.js";
import { startKernel } from "./kernel.js";
import type { SandboxFiles } from "../files/sandbox-files.js";
import { withNote } from "../../contract/stderr-note.js";
import { execute, startFailure, type Kernel } from "./run.js";
import { countsBy } from "../counts.js";
import { createRunFileHolder } from "../files/run-file-holder.js";
import { heldStudentFiles } from "../files/held-student-files.js";
import { sandboxBusy, sandboxError, type Sandbox, type SandboxEvent, type SandboxRunRequest } from "../sandbox.js";

export interface JupyterSandboxOptions {
  /**
   * Base URL of a Jupyter server, Jupyter Kernel Gateway or Enterprise
   * Gateway (with JupyterHub, a user server's URL), e.g. `http://127.0.0.1:8888/`.
   */
  url: string;
  /** The server's token, sent as `Authorization: token …`. */
  token: string;
  /** @default "python3" */
  kernelName?: string;
  /**
   * `"per-run"` (the default): a fresh kernel for each run, shut down when
   * it ends. `"per-chat"`: a kernel for each chat (the tool's `chatId`)
   * whose variables are there in the chat's next run; shut down after
   * `idleMs` without a run, or when a run stopped by Stop or the time
   * limit does not end at the kernel's interrupt.
   */
  kernels?: "per-run" | "per-chat";
  /** How long a chat's kernel waits for its next run. @default 600 000 (10 minutes) */
  idleMs?: number;
  /**
   * Kernels this sandbox has at once. Past it, the chat kernel idle the
   * longest is shut down for the new one, or the run is `busy`. @default 32
   */
  maxKernels?: number;
  /** Chat kernels one student has at once; past it, their kernel idle the longest goes. @default 3 */
  maxChatKernelsPerStudent?: number;
  /**
   * Runs on a kernel of their own (a kernel per run, or a run without a
   * chat) one student has at once; past it, their next run is `busy`, so
   * that no student takes every kernel. @default 2
   */
  maxRunsPerStudent?: number;
  /**
   * Kernels the students of one client (the tool's `clientId`: an address)
   * hold together, chats' and runs' alike; past it, their chat kernel idle
   * the longest goes, or the run is `busy`. Many cookies of one person stay
   * within it. @default half of `maxKernels`
   */
  maxKernelsPerClient?: number;
}

/** A chat's kernel, while it has one: busy with a run or waiting for the next. */
interface ChatKernel {
  /** Its student: the tenant and the participant. */
  owner: string;
  /** Where its runs came from, where the tool knew it. */
  client?: string;
  kernel: Kernel | null;
  busy: boolean;
  idle?: ReturnType<typeof setTimeout>;
}

/**
 * A sandbox on Jupyter kernels (`@jupyterlab/services`): a fresh kernel per
 * run, or one per chat that keeps the chat's variables (`kernels`). stdout
 * and stderr stream as live output; a failing program's traceback names its
 * lines as the kit's own sandbox does. A kernel is not a sandbox by itself:
 * what isolates one student's program from another's and from the network is
 * the server's (Enterprise Gateway's pods, a container per kernel). Each
 * kernel works in a directory of its own; a run's figures and the files it
 * wrote there are held in this server's memory for the file route
 * (`createRunFileRoute({ sandbox })`), and so are the students' uploads
 * (`studentFiles`), which a run given them finds in its directory.
 */
export function createJupyterSandbox(options: JupyterSandboxOptions): Sandbox & {
  /**
   * The students' uploads for this sandbox: the upload route's and the chat
   * endpoints' `sandboxFiles` and `attachments`. Held in this server's
   * memory for their owner, as runs' files are, and written into a run's
   * working directory when the tool gives it them.
   */
  studentFiles(tenantId: string): SandboxFiles;
  close(): Promise<void>;
} {
  const baseUrl = new URL(options.url);
  const kernelName = options.kernelName ?? "python3";
  const perChat = options.kernels === "per-chat";
  const idleMs = options.idleMs ?? 600_000;
  const maxKernels = options.maxKernels ?? 32;
  const maxPerStudent = options.maxChatKernelsPerStudent ?? 3;
  const maxRunsPerStudent = options.maxRunsPerStudent ?? 2;
  const maxPerClient = options.maxKernelsPerClient ?? Math.ceil(maxKernels / 2);
  // Runs on kernels of their own, by client, while they last.
  const clientRuns = countsBy();
  // Runs on kernels of their own, by student, while they last.
  const ownRuns = countsBy();
  // In the order they were last used: the one idle the longest first.
  const chats = new Map<string, ChatKernel>();
  // Kernels started and not yet shut down, of every mode: what the Jupyter server holds for this sandbox.
  const open = new Set<Kernel>();
  let starting = 0;
  /** Shuts down the chat kernel idle the longest among those `which` picks; false when none is idle. */
  const shutOldestIdle = (which: (chat: ChatKernel) => boolean) => {
    for (const [key, chat] of chats) {
      if (chat.busy || !which(chat)) continue;
      clearTimeout(chat.idle);
      chats.delete(key);
      void chat.kernel?.shutDown();
      return true;
    }
    return false;
  };
  // A kernel keeps no files for later: a run's figures and files are held here for the file route,
  // and the students' uploads beside them, each for their owner.
  const holder = createRunFileHolder();
  const uploads = createRunFileHolder();
  // What its kernels can import, asked of the first one that starts.
  let packages: string[] | null = null;
  const countOf = (owner: string) => [...chats.values()].filter((chat) => chat.owner === owner).length;
  const clientCount = (client: string) =>
    [...chats.values()].filter((chat) => chat.client === client).length + clientRuns.get(client);

  /** A new kernel, connected and answering; its process is shut down by `shutDown`. */
  async function openKernel(signal: AbortSignal): Promise<Kernel> {
    // Counted as starting until it is in `open`, never in both.
    let counted = true;
    const uncount = () => {
      if (counted) starting--;
      counted = false;
    };
    starting++;
    try {
      return await startKernel({ url: baseUrl, token: options.token, kernelName, open, onOpen: uncount }, signal);
    } finally {
      uncount();
    }
  }

  return {
    kind: "jupyter",
    keepsVariables: perChat,
    keepsFiles: false,
    get packages() {
      return packages;
    },
    async *run(request: SandboxRunRequest): AsyncGenerator<SandboxEvent> {
      // The student's files it is given, as this sandbox holds them for their owner; the rest are gone.
      const found = request.files.map((ref) => ({
        ref,
        held: uploads.read(request, { sessionId: ref.session_id, fileId: ref.id }),
      }));
      const given = found.flatMap(({ ref, held }) =>
        held ? [{ name: held.name, fileId: ref.id, bytes: held.bytes }] : [],
      );
      const gone = found.filter(({ held }) => !held).map(({ ref }) => ref.name);
      // A chat's kernel is its owner's: the key holds the tenant and the participant as well as the chat.
      const key =
        perChat && request.chatId ? JSON.stringify([request.tenantId, request.participantId, request.chatId]) : null;
      const held = key ? chats.get(key) : undefined;
      if (held?.busy) {
        yield {
          kind: "done",
          outcome: sandboxBusy("A program of this chat is still running."),
        };
        return;
      }
      const owner = JSON.stringify([request.tenantId, request.participantId]);
      if (!key && ownRuns.get(owner) >= maxRunsPerStudent) {
        const message =
          "Your programs already running use every Python kernel one student may have; wait for one to end.";
        yield { kind: "done", outcome: sandboxBusy(message) };
        return;
      }
      const client = request.clientId;
      if (!key) ownRuns.add(owner);
      if (!key && client) clientRuns.add(client);
      // A chat's kernel lost while it waited (it died, its connection broke), or one the model asked
      // to restart, is shut down, never left running.
      const dropped = held?.kernel && (held.kernel.lost || request.restart) ? held.kernel : null;
      let kernel: Kernel | null = held?.kernel && !dropped ? held.kernel : null;
      const chat: ChatKernel | null = key
        ? (held ?? { owner, ...(client ? { client } : {}), kernel: null, busy: false })
        : null;
      if (key && chat) {
        chat.busy = true;
        clearTimeout(chat.idle);
        // Last used now: to the end of the order.
        chats.delete(key);
        chats.set(key, chat);
      }
      let keep = false;
      try {
        // Waited for, so that a restarted chat never has two kernels at once.
        if (dropped) await dropped.shutDown();
        if (kernel && !(await kernel.stillThere())) {
          void kernel.shutDown();
          kernel = null;
        }
        // The chat's earlier runs left this kernel its variables: the card says the run continues them.
        const continued = kernel !== null;
        if (!kernel) {
          yield { kind: "queued" };
          // Room for one more kernel: the student's own chat kernel idle the longest goes first, then anyone's.
          while (chat && countOf(owner) > maxPerStudent && shutOldestIdle((other) => other.owner === owner));
          while (client && clientCount(client) > maxPerClient && shutOldestIdle((other) => other.client === client));
          while (open.size + starting >= maxKernels && shutOldestIdle(() => true));
          if (client && clientCount(client) > maxPerClient) {
            const message =
              "The Python kernels open from your network are all in use; try again when one of its programs ends.";
            yield { kind: "done", outcome: sandboxBusy(message) };
            return;
          }
          if (open.size + starting >= maxKernels || (chat && countOf(owner) > maxPerStudent)) {
            const message = "Every Python kernel is in use; try again shortly.";
            yield { kind: "done", outcome: sandboxBusy(message) };
            return;
          }
          try {
            kernel = await openKernel(request.signal);
          } catch (error) {
            if (request.signal.aborted) throw request.signal.reason;
            yield { kind: "done", outcome: await startFailure(error) };
            return;
          }
          if (chat) chat.kernel = kernel;
        }
        try {
          packages ??= await kernelPackages(kernel).catch(() => null);
          await giveFiles(kernel, given, request.signal);
        } catch (error) {
          if (request.signal.aborted) throw request.signal.reason;
          const why =
            kernel.lost ??
            `The student's files could not be put in the working directory (${(error as Error).message}).`;
          yield { kind: "done", outcome: sandboxError("sandbox_failed", why) };
          return;
        }
        // Stopped or out of time: a chat's kernel is interrupted, and kept (with its variables) if the
        // program ended at the interrupt and left nothing running.
        const onInterrupted = chat
          ? (left: number) => {
              keep = left === 0 && !kernel!.lost;
            }
          : undefined;
        const { outcome, leftRunning } = yield* execute(kernel, request, holder, onInterrupted);
        if (gone.length && outcome.ok && outcome.result.status === "completed") outcome.result.filesGone = gone;
        // Only a run that ended by itself, and left nothing running past its time, leaves its chat's kernel.
        keep = chat !== null && outcome.ok && !kernel.lost && leftRunning === 0;
        if (chat && outcome.ok && leftRunning !== 0 && outcome.result.status === "completed") {
          outcome.result.stderr = withNote(
            outcome.result.stderr,
            "The program left threads or processes running, so this chat's Python session was ended: the next run starts without its variables.",
          );
        }
        if (outcome.ok && (outcome.result.status === "completed" || outcome.result.status === "timeout")) {
          if (continued) outcome.result.continued = true;
          else if (chat && request.restart) outcome.result.restarted = true;
        }
        yield { kind: "done", outcome };
      } finally {
        if (!key) ownRuns.remove(owner);
        if (!key && client) clientRuns.remove(client);
        if (!keep) void kernel?.shutDown();
        if (key && chat) {
          chat.busy = false;
          if (!keep) chats.delete(key);
          else {
            const forget = () => {
              clearTimeout(chat.idle);
              if (chats.get(key) === chat) chats.delete(key);
              void chat.kernel?.shutDown();
            };
            chat.idle = setTimeout(forget, idleMs);
            // A waiting kernel does not keep the server's process alive by itself.
            chat.idle.unref?.();
            // Lost while it waits: shut down now, not at the chat's next run.
            kernel!.onLost = forget;
          }
        }
      }
    },
    async readFile(owner, ref) {
      return holder.read(owner, ref) ?? uploads.read(owner, ref);
    },
    studentFiles: (tenantId) => heldStudentFiles(uploads, tenantId),
    async close() {
      for (const chat of chats.values()) clearTimeout(chat.idle);
      chats.clear();
      // Waited for, so that a server stopping right after leaves no kernel running on the Jupyter server.
      await Promise.all([...open].map((kernel) => kernel.shutDown()));
    },
  };
}
