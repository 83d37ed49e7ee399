// The sandbox service as a process of its own: the engines, the output's
// framing and the students' files off the chat server's thread, as in a
// deployment. Started by the harness (`startSandboxProcess`) with its
// settings in EXECUTE_CODE_SANDBOX_SETTINGS; it answers on a loopback port
// and tells its parent the URL over the IPC channel.
import "../server/require-node.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { importJWK, type JWK } from "jose";
import { createDefaultExecutor, type DefaultExecutorOptions } from "./default-executor.js";
import { createSandbox } from "./service.js";
import type { RateLimit } from "./rate-limiter.js";
import type { RunSchedule } from "./run-scheduler.js";

/** What the parent hands the service, as JSON. */
export interface SandboxProcessSettings {
  publicKey: JWK;
  algorithm: string;
  issuer: string;
  audience: string;
  executor: DefaultExecutorOptions;
  rateLimit?: RateLimit;
  maxRunMs?: number;
  schedule?: RunSchedule;
  /** Connections it holds at once: the chat server's runs, uploads and downloads. */
  maxConnections: number;
  /** The loopback port to listen on: the one it had, when it is started again. @default a free one */
  port?: number;
}

/** Messages to the parent. */
export type SandboxProcessMessage = { type: "listening"; url: string } | { type: "failed"; message: string };

const settings = JSON.parse(process.env.EXECUTE_CODE_SANDBOX_SETTINGS ?? "null") as SandboxProcessSettings | null;
const tell = (message: SandboxProcessMessage) => process.send?.(message);

if (!settings || !process.send) {
  console.error("This is the harness's sandbox process; the harness starts it (startSandboxProcess).");
  process.exit(2);
}

try {
  const executor = createDefaultExecutor(settings.executor);
  const sandbox = createSandbox({
    publicKey: (await importJWK(settings.publicKey, settings.algorithm)) as CryptoKey,
    algorithms: [settings.algorithm],
    issuer: settings.issuer,
    audience: settings.audience,
    executor,
    rateLimit: settings.rateLimit,
    maxRunMs: settings.maxRunMs,
    schedule: settings.schedule,
  });
  const server = createServer((req, res) => {
    // Only the harness calls it by that name; any other is a page's DNS rebinding.
    const own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.headers.host !== own || !sandbox.handle(req, res)) res.writeHead(404).end();
  });
  server.maxConnections = settings.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port ?? 0, "127.0.0.1", resolve);
  });
  // The parent gone (closed, or killed): runs end with it, and nothing is left behind.
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    server.closeAllConnections();
    server.close();
    await sandbox.close().catch(() => undefined);
    process.exit(0);
  };
  process.once("disconnect", () => void close());
  process.once("SIGTERM", () => void close());
  process.once("SIGINT", () => void close());
  tell({ type: "listening", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
} catch (error) {
  tell({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
