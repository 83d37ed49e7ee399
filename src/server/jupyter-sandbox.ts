import { kernelSettings, loadJupyterClient } from "./jupyter-client.js";
import { execute, startFailure, type Kernel } from "./jupyter-run.js";
import { sandboxBusy, sandboxError } from "./sandbox-client.js";
import { createRunFileHolder } from "./run-file-holder.js";
import type { Sandbox, SandboxEvent, SandboxRunRequest } from "./sandbox.js";

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
   * `idleMs` without a run, or when a run is stopped or runs out of time.
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
}

/** A chat's kernel, while it has one: busy with a run or waiting for the next. */
interface ChatKernel {
  /** Its student: the tenant and the participant. */
  owner: string;
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
 * the server's (Enterprise Gateway's pods, a container per kernel). A
 * run's figures are held in this server's memory for the file route
 * (`createRunFileRoute({ sandbox })`); other files do not come back from it
 * yet, and a run given the chat's files is refused.
 */
export function createJupyterSandbox(options: JupyterSandboxOptions): Sandbox & { close(): Promise<void> } {
  const baseUrl = new URL(options.url);
  const kernelName = options.kernelName ?? "python3";
  const perChat = options.kernels === "per-chat";
  const idleMs = options.idleMs ?? 600_000;
  const maxKernels = options.maxKernels ?? 32;
  const maxPerStudent = options.maxChatKernelsPerStudent ?? 3;
  const maxRunsPerStudent = options.maxRunsPerStudent ?? 2;
  // Runs on kernels of their own, by student, while they last.
  const ownRuns = new Map<string, number>();
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
  // A kernel keeps no files for later: a run's figures are held here for the file route.
  const holder = createRunFileHolder();
  const countOf = (owner: string) => [...chats.values()].filter((chat) => chat.owner === owner).length;

  /** A new kernel, connected and answering; its process is shut down by `shutDown`. */
  async function openKernel(signal: AbortSignal): Promise<Kernel> {
    starting++;
    try {
      return await startKernel(signal);
    } finally {
      starting--;
    }
  }

  async function startKernel(signal: AbortSignal): Promise<Kernel> {
    const loaded = await loadJupyterClient();
    const { api } = loaded;
    // Told before the kernel exists, where a malformed message can already come.
    let lose: (why: string) => void = () => undefined;
    const settings = kernelSettings(loaded, { url: baseUrl, token: options.token }, () =>
      lose("The Python kernel sent a message that is not Jupyter's."),
    );
    const started = api.KernelAPI.startNew({ name: kernelName }, settings);
    // A start that comes after Stop is shut down at once: the server keeps no kernel for no one.
    void started.then(
      (model) => {
        if (signal.aborted) void api.KernelAPI.shutdownKernel(model.id, settings).catch(() => undefined);
      },
      () => undefined,
    );
    const model = await new Promise<Awaited<typeof started>>((resolve, reject) => {
      const stop = () => reject(signal.reason);
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
      started.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
    });
    const connection = new api.KernelConnection({ model, serverSettings: settings, handleComms: false });
    const kernel: Kernel = {
      connection,
      lost: null,
      onLost: null,
      stillThere: () =>
        api.KernelAPI.getKernelModel(model.id, settings).then(
          (found) => found !== undefined,
          () => false,
        ),
      async shutDown() {
        if (!open.delete(kernel)) return;
        kernel.lost ??= "The Python kernel was shut down.";
        connection.dispose();
        await api.KernelAPI.shutdownKernel(model.id, settings).catch(() => undefined);
      },
    };
    open.add(kernel);
    lose = (why) => {
      if (kernel.lost) return;
      kernel.lost = why;
      kernel.onLost?.(why);
    };
    // A connection lost in the middle of a run loses its output with it: the kernel is done.
    let connected = false;
    connection.connectionStatusChanged.connect((_, status) => {
      if (status === "connected") connected = true;
      else if (connected || status === "disconnected") lose("The connection to the Python kernel was lost.");
    });
    connection.statusChanged.connect((_, status) => {
      if (status === "dead" || status === "autorestarting") lose("The Python kernel stopped in the middle of the run.");
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        if (signal.aborted) return stop();
        signal.addEventListener("abort", stop, { once: true });
        kernel.onLost = (why) => reject(new Error(why));
        connection.info.then(
          () => resolve(),
          () => reject(new Error("The Python kernel did not answer.")),
        );
      }).finally(() => (kernel.onLost = null));
    } catch (error) {
      void kernel.shutDown();
      throw error;
    }
    return kernel;
  }

  return {
    kind: "jupyter",
    keepsVariables: perChat,
    keepsFiles: false,
    async *run(request: SandboxRunRequest): AsyncGenerator<SandboxEvent> {
      if (request.files.length) {
        yield {
          kind: "done",
          outcome: sandboxError(
            "files_unsupported",
            "This Jupyter sandbox cannot give a program the chat's files yet, so it did not run. Run it without them.",
          ),
        };
        return;
      }
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
      if (!key && (ownRuns.get(owner) ?? 0) >= maxRunsPerStudent) {
        const message =
          "Your programs already running use every Python kernel one student may have; wait for one to end.";
        yield { kind: "done", outcome: sandboxBusy(message) };
        return;
      }
      if (!key) ownRuns.set(owner, (ownRuns.get(owner) ?? 0) + 1);
      // A chat's kernel lost while it waited (it died, its connection broke) is shut down, never left running.
      if (held?.kernel?.lost) void held.kernel.shutDown();
      let kernel: Kernel | null = held?.kernel && !held.kernel.lost ? held.kernel : null;
      const chat: ChatKernel | null = key ? (held ?? { owner, kernel: null, busy: false }) : null;
      if (key && chat) {
        chat.busy = true;
        clearTimeout(chat.idle);
        // Last used now: to the end of the order.
        chats.delete(key);
        chats.set(key, chat);
      }
      let keep = false;
      try {
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
          while (open.size + starting >= maxKernels && shutOldestIdle(() => true));
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
        const { outcome, leftRunning } = yield* execute(kernel, request, holder);
        // Only a run that ended by itself, and left nothing running past its time, leaves its chat's kernel.
        keep = chat !== null && outcome.ok && !kernel.lost && leftRunning === 0;
        if (chat && outcome.ok && leftRunning !== 0 && outcome.result.status === "completed") {
          const { stderr } = outcome.result;
          const notice =
            "The program left threads or processes running, so this chat's Python session was ended: the next run starts without its variables.";
          outcome.result.stderr = `${stderr}${stderr && !stderr.endsWith("\n") ? "\n" : ""}${notice}\n`;
        }
        if (continued && outcome.ok && outcome.result.status === "completed") outcome.result.continued = true;
        yield { kind: "done", outcome };
      } finally {
        if (!key) {
          const left = (ownRuns.get(owner) ?? 1) - 1;
          if (left) ownRuns.set(owner, left);
          else ownRuns.delete(owner);
        }
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
      return holder.read(owner, ref);
    },
    async close() {
      for (const chat of chats.values()) clearTimeout(chat.idle);
      chats.clear();
      // Waited for, so that a server stopping right after leaves no kernel running on the Jupyter server.
      await Promise.all([...open].map((kernel) => kernel.shutDown()));
    },
  };
}
