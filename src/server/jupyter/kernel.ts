// Starting one kernel on a Jupyter server: connected, answering, and told
// when it is lost.
import { kernelSettings, loadJupyterClient } from "./client.js";
import type { Kernel } from "./run.js";

/** Where kernels start, and the set of those started and not yet shut down. */
export interface KernelServer {
  url: URL;
  token: string;
  kernelName: string;
  open: Set<Kernel>;
  /** Told once the kernel is in `open`, while it is still connecting (a count of starting kernels stops counting it). */
  onOpen?: () => void;
}

/** A new kernel, connected and answering; its process is shut down by `shutDown`. */
export async function startKernel(server: KernelServer, signal: AbortSignal): Promise<Kernel> {
  const { open } = server;
  const loaded = await loadJupyterClient();
  const { api } = loaded;
  // Told before the kernel exists, where a malformed message can already come.
  let lose: (why: string) => void = () => undefined;
  const settings = kernelSettings(loaded, { url: server.url, token: server.token }, () =>
    lose("The Python kernel sent a message that is not Jupyter's."),
  );
  const started = api.KernelAPI.startNew({ name: server.kernelName }, settings);
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
  server.onOpen?.();
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
