#!/usr/bin/env node
// `execute-code-ui-sandbox`: the sandbox as a service a course deploys.
//   keygen  makes the keys: a key pair for the server tool's tokens, and an
//           API key for codeapi's clients (a self-hosted LibreChat)
//   serve   answers codeapi's /v1 endpoints with those keys
// Settings come from flags or the environment (docs/sandbox.md).
import "../server/require-node.js";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI } from "jose";
import { createDefaultExecutor, type SandboxEngine } from "./default-executor.js";
import { createSandbox } from "./service.js";

/** What the server tool's tokens must say, unless told otherwise: the same as `startSandbox`'s. */
const ISSUER = "execute-code-ui-sandbox";
const AUDIENCE = "sandbox";
const FILES = { privateKey: "token-private.pem", publicKey: "token-public.pem", apiKey: "api-key" } as const;

const USAGE = `Usage:
  execute-code-ui-sandbox keygen [--keys DIR] [--force]
  execute-code-ui-sandbox serve  [--keys DIR] [--host HOST] [--port PORT] [--engine auto|cpython|pyodide]
                                 [--max-run-ms MS] [--memory-mb MB] [--max-running N]

keygen writes DIR (default ./sandbox-keys): ${FILES.privateKey} for your server tool's
signing, ${FILES.publicKey} for the sandbox, ${FILES.apiKey} for codeapi's clients.
serve answers POST /v1/exec, /v1/upload, /v1/download/…, /v1/files/… and GET /v1/health.
Each flag has an environment variable: SANDBOX_KEYS_DIR, SANDBOX_HOST (127.0.0.1),
SANDBOX_PORT (8700), SANDBOX_ENGINE (auto), SANDBOX_MAX_RUN_MS (10000),
SANDBOX_MEMORY_MB, SANDBOX_MAX_CONCURRENT_RUNS (4); SANDBOX_PER_PROCESS_LIMITS=1
lets CPython run without a control group per run; SANDBOX_API_KEYS adds keys
(comma-separated), SANDBOX_TOKEN_ISSUER and SANDBOX_TOKEN_AUDIENCE change what
tokens must say (${ISSUER}, ${AUDIENCE}), and SANDBOX_OPERATOR_TOKEN lets
\`Authorization: Bearer <it>\` read the counts in /v1/health (anyone else reads
that it is up and which engine runs).`;

class UsageError extends Error {}

function parse(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      keys: { type: "string" },
      force: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      engine: { type: "string" },
      "max-run-ms": { type: "string" },
      "memory-mb": { type: "string" },
      "max-running": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  return { command: positionals[0], values };
}

/** A flag, else its environment variable, else the default. */
function setting(flag: string | undefined, env: string, fallback?: string): string | undefined {
  return flag ?? (process.env[env] || undefined) ?? fallback;
}

function numberSetting(flag: string | undefined, env: string, fallback?: number): number | undefined {
  const raw = setting(flag, env);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new UsageError(`${env} (or its flag) must be a whole number; got "${raw}".`);
  return value;
}

async function keygen(dir: string, force: boolean) {
  const paths = Object.values(FILES).map((name) => join(dir, name));
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length && !force) {
    throw new UsageError(`${existing.join(", ")} already exist; --force replaces them (and every key made from them).`);
  }
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Secrets readable by their owner only.
  writeFileSync(join(dir, FILES.privateKey), await exportPKCS8(privateKey), { mode: 0o600 });
  writeFileSync(join(dir, FILES.publicKey), await exportSPKI(publicKey), { mode: 0o644 });
  writeFileSync(join(dir, FILES.apiKey), `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  console.log(`Wrote ${paths.join(", ")}.
The sandbox:      execute-code-ui-sandbox serve --keys ${dir}
Your server tool: signing: { privateKey: <${FILES.privateKey}>, algorithm: "EdDSA", issuer: "${ISSUER}", audience: "${AUDIENCE}" }
LibreChat:        LIBRECHAT_CODE_BASEURL=http://<host>:<port>/v1 and LIBRECHAT_CODE_API_KEY=<${FILES.apiKey}>`);
}

async function serve(values: ReturnType<typeof parse>["values"]) {
  const dir = setting(values.keys, "SANDBOX_KEYS_DIR", "sandbox-keys")!;
  const publicKeyPath = join(dir, FILES.publicKey);
  if (!existsSync(publicKeyPath)) {
    throw new UsageError(`No ${publicKeyPath}: run "execute-code-ui-sandbox keygen --keys ${dir}" first.`);
  }
  const apiKeyPath = join(dir, FILES.apiKey);
  const apiKeys = [
    ...(existsSync(apiKeyPath) ? [readFileSync(apiKeyPath, "utf8").trim()] : []),
    ...(process.env.SANDBOX_API_KEYS ?? "").split(",").map((key) => key.trim()),
  ].filter(Boolean);
  const engine = setting(values.engine, "SANDBOX_ENGINE", "auto");
  if (engine !== "auto" && engine !== "cpython" && engine !== "pyodide") {
    throw new UsageError(`The engine must be auto, cpython or pyodide; got "${engine}".`);
  }
  const maxRunMs = numberSetting(values["max-run-ms"], "SANDBOX_MAX_RUN_MS", 10_000)!;
  const maxRunning = numberSetting(values["max-running"], "SANDBOX_MAX_CONCURRENT_RUNS", 4)!;
  const memoryLimitMb = numberSetting(values["memory-mb"], "SANDBOX_MEMORY_MB");
  const port = numberSetting(values.port, "SANDBOX_PORT", 8700)!;
  const host = setting(values.host, "SANDBOX_HOST", "127.0.0.1")!;

  const memory = memoryLimitMb ? { memoryLimitMb } : {};
  const executor = createDefaultExecutor({
    engine: engine as SandboxEngine,
    cpython: { ...memory, allowPerProcessMemoryLimit: process.env.SANDBOX_PER_PROCESS_LIMITS === "1" },
    pyodide: { ...memory, maxConcurrentRuns: maxRunning },
  });
  const sandbox = createSandbox({
    publicKey: await importSPKI(readFileSync(publicKeyPath, "utf8"), "EdDSA"),
    algorithms: ["EdDSA"],
    issuer: setting(undefined, "SANDBOX_TOKEN_ISSUER", ISSUER)!,
    audience: setting(undefined, "SANDBOX_TOKEN_AUDIENCE", AUDIENCE)!,
    apiKeys,
    // The counts in /v1/health are an operator's; with no token set, nobody's.
    operatorToken: process.env.SANDBOX_OPERATOR_TOKEN ?? "",
    executor,
    maxRunMs,
    schedule: { maxRunning },
  });
  const server = createServer((req, res) => {
    if (!sandbox.handle(req, res)) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "not_found", message: "No such endpoint." }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const { address, port: bound } = server.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${bound}`;
  const named = executor.health?.().executor;
  console.log(
    `The sandbox listens on ${url} (${named ?? "its engine"}, ${apiKeys.length} API key${apiKeys.length === 1 ? "" : "s"}).`,
  );

  // A stop lets running programs end with their results: no new request, then out once the last answer went.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: the sandbox takes no new runs and stops once the running ones have answered.`);
    const done = async () => {
      await sandbox.close().catch(() => undefined);
      process.exit(0);
    };
    server.close(() => void done());
    // A connection kept alive after its answer is closed once idle, not held for its keep-alive time.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    // A client that keeps its connection open past every run's limit is not waited for.
    setTimeout(() => {
      server.closeAllConnections();
      void done();
    }, maxRunMs + 5_000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

try {
  const { command, values } = parse(process.argv.slice(2));
  if (values.help || command === undefined || command === "help") console.log(USAGE);
  else if (command === "keygen")
    await keygen(setting(values.keys, "SANDBOX_KEYS_DIR", "sandbox-keys")!, !!values.force);
  else if (command === "serve") await serve(values);
  else throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
} catch (error) {
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(usage ? 2 : 1);
}
