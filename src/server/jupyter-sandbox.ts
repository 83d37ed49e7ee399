import type { ExecuteCodeResult } from "../contract/index.js";
import { CappedText } from "../contract/truncate.js";
import type { SandboxOutcome } from "./sandbox-client.js";
import type { Sandbox, SandboxEvent, SandboxRunRequest } from "./sandbox.js";
import { readRetryAfterMs } from "./retry-after.js";

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
}

/** How the runner cell tells the exit code: a display message of this type, never shown. */
const EXIT_TYPE = "application/vnd.execute-code-ui.exit+json";

/**
 * Runs the program as `python -c` would: its frames named `<exec>` as in the
 * kit's own sandbox, `sys.exit` taken as the exit code, and the traceback
 * starting at the program (not at this runner). It runs in the kernel's own
 * namespace; the runner's names stay in a dictionary of their own.
 */
const RUNNER = `
import base64, sys, traceback
from IPython.display import publish_display_data

def run(source, namespace):
    try:
        exec(compile(source, "<exec>", "exec"), namespace)
        return 0
    except SystemExit as exit:
        code = exit.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        kind, value, frames = sys.exc_info()
        while frames is not None and frames.tb_frame.f_code.co_filename != "<exec>":
            frames = frames.tb_next
        traceback.print_exception(kind, value, frames)
        if kind.__name__ == "StdinNotImplementedError":
            print("input() cannot read typed input here: put the values in the program.", file=sys.stderr)
        return 1

status = run(base64.b64decode(PROGRAM).decode("utf-8"), get_ipython().user_ns)
sys.stdout.flush()
sys.stderr.flush()
publish_display_data({"${EXIT_TYPE}": {"code": status}})
`;

/** The cell the kernel gets: the runner, handed the program as base64 so no character of it is read as Python here. */
export function runnerCell(code: string): string {
  const program = Buffer.from(code, "utf8").toString("base64");
  return `exec(compile(${JSON.stringify(RUNNER)}, "<execute-code-ui>", "exec"), {"PROGRAM": "${program}", "get_ipython": get_ipython})`;
}

const failed = (code: string, message: string): SandboxOutcome => ({
  ok: false,
  result: { status: "error", code, message },
});

/** Why a kernel could not be had, as a result the model can explain: the server's answer, or the network's. */
async function startFailure(error: unknown): Promise<SandboxOutcome> {
  const response = (error as { response?: Response }).response;
  if (response instanceof Response) {
    if (response.status === 401 || response.status === 403)
      return failed(
        "sandbox_unauthorized",
        `The Jupyter server refused the request (HTTP ${response.status}). This is a set-up problem on the server (its token), not a problem with the program.`,
      );
    if (response.status === 429 || response.status === 503)
      return {
        ok: false,
        result: {
          status: "busy",
          retryAfterMs: readRetryAfterMs(response.headers.get("retry-after"), undefined),
          message: "The Jupyter server has no room for another Python kernel right now.",
        },
      };
    return failed(
      "sandbox_failed",
      `The Jupyter server could not start a Python kernel (HTTP ${response.status}). The program did not run; trying again later can help.`,
    );
  }
  return failed(
    "sandbox_unavailable",
    "The Jupyter server cannot be reached right now, so the program did not run. Try again in a minute.",
  );
}

type KernelMessage = { header: { msg_type: string }; content: Record<string, unknown> };
type Services = typeof import("@jupyterlab/services");
type Connection = InstanceType<Services["KernelConnection"]>;

/** A kernel of this sandbox: its connection, and the run it is doing (told if the kernel goes). */
interface Kernel {
  connection: Connection;
  shutDown(): void;
  /** Why it can run nothing more (its connection lost, its process dead), once it cannot. */
  lost: string | null;
  onLost: ((why: string) => void) | null;
}

/** A chat's kernel, while it has one: busy with a run or waiting for the next. */
interface ChatKernel {
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
 * the server's (Enterprise Gateway's pods, a container per kernel). Figures
 * and files do not come back from it yet, and a run given the chat's files
 * is refused.
 */
export function createJupyterSandbox(options: JupyterSandboxOptions): Sandbox & { close(): Promise<void> } {
  const baseUrl = new URL(options.url);
  const kernelName = options.kernelName ?? "python3";
  const perChat = options.kernels === "per-chat";
  const idleMs = options.idleMs ?? 600_000;
  const chats = new Map<string, ChatKernel>();
  let services:
    | Promise<{ api: Services; settings: ReturnType<Services["ServerConnection"]["makeSettings"]> }>
    | undefined;

  const connect = () =>
    (services ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "@jupyterlab/services").then((api) => ({
      api,
      settings: api.ServerConnection.makeSettings({
        baseUrl: baseUrl.href,
        wsUrl: baseUrl.href.replace(/^http/, "ws"),
        token: options.token,
        // A WebSocket carries no header: the token goes in its URL, as browsers send it.
        appendToken: true,
        fetch: globalThis.fetch,
        Request: globalThis.Request,
        Headers: globalThis.Headers,
        WebSocket: globalThis.WebSocket,
      }),
    })));

  /** A new kernel, connected and answering; its process is shut down by `shutDown`. */
  async function openKernel(signal: AbortSignal): Promise<Kernel> {
    const { api, settings } = await connect();
    const model = await api.KernelAPI.startNew({ name: kernelName }, settings);
    const connection = new api.KernelConnection({ model, serverSettings: settings, handleComms: false });
    const kernel: Kernel = {
      connection,
      lost: null,
      onLost: null,
      shutDown() {
        kernel.lost ??= "The Python kernel was shut down.";
        void api.KernelAPI.shutdownKernel(model.id, settings).catch(() => undefined);
        connection.dispose();
      },
    };
    const lose = (why: string) => {
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
      kernel.shutDown();
      throw error;
    }
    return kernel;
  }

  return {
    kind: "jupyter",
    keepsVariables: perChat,
    async *run(request: SandboxRunRequest): AsyncGenerator<SandboxEvent> {
      if (request.files.length) {
        yield {
          kind: "done",
          outcome: failed(
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
          outcome: {
            ok: false,
            result: { status: "busy", retryAfterMs: null, message: "A program of this chat is still running." },
          },
        };
        return;
      }
      const chat: ChatKernel | null = key ? (held ?? { kernel: null, busy: false }) : null;
      if (key && chat) {
        chat.busy = true;
        clearTimeout(chat.idle);
        chats.set(key, chat);
      }
      let kernel: Kernel | null = chat?.kernel && !chat.kernel.lost ? chat.kernel : null;
      let keep = false;
      try {
        if (!kernel) {
          yield { kind: "queued" };
          try {
            kernel = await openKernel(request.signal);
          } catch (error) {
            if (request.signal.aborted) throw request.signal.reason;
            yield { kind: "done", outcome: await startFailure(error) };
            return;
          }
          if (chat) chat.kernel = kernel;
        }
        const outcome = yield* execute(kernel, request);
        yield { kind: "done", outcome };
        // Only a run that ended by itself leaves its chat's kernel for the next one.
        keep = chat !== null && outcome.ok && !kernel.lost;
      } finally {
        if (!keep) kernel?.shutDown();
        if (key && chat) {
          chat.busy = false;
          if (!keep) chats.delete(key);
          else
            chat.idle = setTimeout(() => {
              chats.delete(key);
              chat.kernel?.shutDown();
            }, idleMs);
        }
      }
    },
    async close() {
      for (const chat of chats.values()) {
        clearTimeout(chat.idle);
        chat.kernel?.shutDown();
      }
      chats.clear();
    },
  };
}

/** One program on a connected kernel: its output as it comes, then its outcome. Throws the abort's reason on Stop. */
async function* execute(kernel: Kernel, request: SandboxRunRequest): AsyncGenerator<SandboxEvent, SandboxOutcome> {
  const events = new EventQueue<KernelMessage | { ended: string } | { aborted: true }>();
  const onAbort = () => events.push({ aborted: true });
  request.signal.addEventListener("abort", onAbort, { once: true });
  kernel.onLost = (why) => events.push({ ended: why });
  try {
    if (request.signal.aborted) throw request.signal.reason;
    if (kernel.lost) return failed("sandbox_failed", kernel.lost);
    const future = kernel.connection.requestExecute(
      { code: runnerCell(request.code), allow_stdin: false, store_history: false, stop_on_error: true },
      true,
    );
    future.onIOPub = (message) => events.push(message as unknown as KernelMessage);
    future.done.then(
      () => events.push({ ended: "" }),
      () => events.push({ ended: "The Python kernel did not finish the run." }),
    );
    yield { kind: "started" };
    const stdout = new CappedText(request.limits.stdout);
    const stderr = new CappedText(request.limits.stderr);
    let exitCode: number | null = null;
    const started = performance.now();
    for (;;) {
      const event = await events.next();
      if ("aborted" in event) throw request.signal.reason;
      if ("ended" in event) {
        if (event.ended) return failed("sandbox_failed", event.ended);
        break;
      }
      const { msg_type } = event.header;
      if (msg_type === "stream") {
        const { name, text } = event.content as { name?: string; text?: string };
        if (typeof text !== "string") continue;
        (name === "stderr" ? stderr : stdout).add(text);
        yield {
          kind: "output",
          progress: {
            status: "running",
            stdout: stdout.text,
            stderr: stderr.text,
            truncated: { stdout: stdout.cut, stderr: stderr.cut },
          },
        };
      } else if (msg_type === "display_data") {
        const exit = (event.content.data as Record<string, { code?: unknown }> | undefined)?.[EXIT_TYPE];
        if (exit && typeof exit.code === "number") exitCode = exit.code;
      }
    }
    const result: ExecuteCodeResult = {
      status: "completed",
      // No exit said: the runner itself did not finish (the kernel's own error).
      exitCode: exitCode ?? 1,
      signal: null,
      stdout: stdout.text,
      stderr: stderr.text,
      wallTimeMs: Math.round(performance.now() - started),
      truncated: { stdout: stdout.cut, stderr: stderr.cut },
    };
    return { ok: true, result };
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
