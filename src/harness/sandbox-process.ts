import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SandboxProcessMessage, SandboxProcessSettings } from "../sandbox/service-process.js";

/** A sandbox service running in a child process, on a loopback port. */
export interface SandboxProcess {
  url: string;
  /** Ends the process: its runs end with it. */
  close(): Promise<void>;
}

/** The built script beside this module, or the source through tsx (the tests run the source). */
function entry(): { script: string; execArgv: string[] } {
  const built = fileURLToPath(new URL("../sandbox/service-process.js", import.meta.url));
  if (existsSync(built)) return { script: built, execArgv: [] };
  return {
    script: fileURLToPath(new URL("../sandbox/service-process.ts", import.meta.url)),
    execArgv: ["--import", "tsx"],
  };
}

/** How long to wait before starting a sandbox process again after it ended unasked: doubled each time, up to a bound. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;
/** A process that listened this long before it ended is started again from the first wait. */
const STEADY_MS = 60_000;

/**
 * Starts the sandbox service in a process of its own, so that the programs'
 * output, its framing and the students' files never take the chat server's
 * thread. Resolves once it listens; rejects with its reason when it cannot
 * start (an engine that cannot run here, say). A process that ends unasked
 * (killed, out of memory) is said on stderr and started again on the same
 * port, so runs fail only while it is down.
 */
export async function startSandboxProcess(settings: SandboxProcessSettings): Promise<SandboxProcess> {
  let current = await spawnSandbox(settings);
  const port = Number(new URL(current.url).port);
  let closing = false;
  let wait = RESTART_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = (running: Spawned) => {
    const started = Date.now();
    void running.ended.then((how) => {
      if (closing) return;
      if (Date.now() - started > STEADY_MS) wait = RESTART_FIRST_MS;
      console.error(
        `[execute-code-ui harness] the sandbox process ended (${how}); it starts again in ${wait / 1000} s, and runs fail until then.`,
      );
      timer = setTimeout(restart, wait);
      wait = Math.min(wait * 2, RESTART_MAX_MS);
    });
  };
  const restart = () => {
    timer = undefined;
    if (closing) return;
    spawnSandbox({ ...settings, port }).then(
      (next) => {
        if (closing) return void next.close();
        current = next;
        watch(next);
      },
      (error: unknown) => {
        console.error(`[execute-code-ui harness] the sandbox process did not start again: ${String(error)}`);
        timer = setTimeout(restart, wait);
        wait = Math.min(wait * 2, RESTART_MAX_MS);
      },
    );
  };
  watch(current);
  return {
    url: current.url,
    async close() {
      closing = true;
      clearTimeout(timer);
      await current.close();
    },
  };
}

interface Spawned extends SandboxProcess {
  /** How the process ended, once it has. */
  ended: Promise<string>;
}

/** One sandbox process, resolved once it listens. */
function spawnSandbox(settings: SandboxProcessSettings): Promise<Spawned> {
  const { script, execArgv } = entry();
  const child: ChildProcess = fork(script, [], {
    execArgv,
    env: { ...process.env, EXECUTE_CODE_SANDBOX_SETTINGS: JSON.stringify(settings) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ended = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    void ended.then((how) => reject(new Error(`The sandbox process ended before it listened (${how}).`)));
    child.on("message", (message: SandboxProcessMessage) => {
      if (message.type === "failed") return reject(new Error(message.message));
      resolve({
        url: message.url,
        ended,
        async close() {
          if (child.exitCode === null && child.signalCode === null) {
            child.disconnect();
            // Ended at once if it does not end on its own soon: nothing outlives the harness.
            const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
            await ended;
            clearTimeout(kill);
          }
        },
      });
    });
  });
}
