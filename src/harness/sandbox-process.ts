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

/**
 * Starts the sandbox service in a process of its own, so that the programs'
 * output, its framing and the students' files never take the chat server's
 * thread. Resolves once it listens; rejects with its reason when it cannot
 * start (an engine that cannot run here, say).
 */
export function startSandboxProcess(settings: SandboxProcessSettings): Promise<SandboxProcess> {
  const { script, execArgv } = entry();
  const child: ChildProcess = fork(script, [], {
    execArgv,
    env: { ...process.env, EXECUTE_CODE_SANDBOX_SETTINGS: JSON.stringify(settings) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let closing = false;
  // Said where an operator looks: without its sandbox the harness answers every run with the sandbox unreachable.
  child.once("exit", (code, signal) => {
    if (!closing)
      console.error(
        `[execute-code-ui harness] the sandbox process ended (${signal ?? `exit ${code}`}): no program can run until the harness is restarted.`,
      );
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`The sandbox process ended before it listened (${signal ?? `exit ${code}`}).`)),
    );
    child.on("message", (message: SandboxProcessMessage) => {
      if (message.type === "failed") return reject(new Error(message.message));
      resolve({
        url: message.url,
        async close() {
          closing = true;
          if (child.exitCode === null && child.signalCode === null) {
            child.disconnect();
            // Ended at once if it does not end on its own soon: nothing outlives the harness.
            const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
            await exited;
            clearTimeout(kill);
          }
        },
      });
    });
  });
}
