import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TokenMinterOptions } from "../server/token.js";
import type { Executor } from "./executor.js";
import { createSandbox } from "./service.js";
import { sandboxKeys } from "./sandbox-keys.js";
import { createDefaultExecutor, type SandboxEngine } from "./default-executor.js";
import type { RateLimit } from "./rate-limiter.js";
import type { RunSchedule } from "./run-scheduler.js";

export interface StartSandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** @default 127.0.0.1: only this machine can reach it */
  host?: string;
  /**
   * What runs the programs.
   * @default CPython under bubblewrap where it can run, else Pyodide (needs the `pyodide` package)
   */
  executor?: Executor;
  /**
   * Which of the two engines runs them, when no `executor` is given: `"cpython"` refuses to start
   * where its isolation cannot work.
   * @default "auto": CPython where it can run, else Pyodide (saying why)
   */
  engine?: SandboxEngine;
  rateLimit?: RateLimit;
  maxRunMs?: number;
  /** How run slots are shared between users (see `createSandbox`). */
  schedule?: RunSchedule;
}

export interface StartedSandbox {
  /** Base URL to give `createExecuteCodeTool` as `sandboxUrl`. */
  url: string;
  /** The signing options that this sandbox accepts, for `createExecuteCodeTool`'s `signing`. */
  signing: TokenMinterOptions;
  /** The engine that runs the programs: CPython with the scientific stack, Pyodide with the standard library only, or null for an `executor` of your own. */
  engine: "cpython" | "pyodide" | null;
  close(): Promise<void>;
}

const ISSUER = "execute-code-ui-sandbox";

/**
 * The sandbox on a loopback port of its own, with a fresh key pair, for
 * hosts whose server is not a Node `http` server (a Next.js route handler,
 * say): start it once and point the server tool at it.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const keys = await sandboxKeys(ISSUER);
  const executor = options.executor ?? createDefaultExecutor({ engine: options.engine });
  const named = executor.health?.().executor;
  const { rateLimit, maxRunMs, schedule } = options;
  const sandbox = createSandbox({ ...keys.verification, executor, rateLimit, maxRunMs, schedule });
  const server = createServer((req, res) => {
    if (!sandbox.handle(req, res)) res.writeHead(404).end();
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    engine: named === "cpython" || named === "pyodide" ? named : null,
    signing: keys.signing,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
    },
  };
}
