// `npm start`: the harness with settings from the environment.
// Before anything else loads: a Node too old is told so at start.
import "../server/require-node.js";
import { createJupyterSandbox } from "../server/jupyter/jupyter-sandbox.js";
import { startHarness } from "./harness-server.js";
import { modelFromEnv, ModelEnvError } from "./model-from-env.js";
import type { SandboxEngine } from "../sandbox/default-executor.js";

/**
 * The sandbox's settings are `SANDBOX_*`; the names they had while the
 * sandbox was called a mock, `MOCK_SANDBOX_*`, still work.
 */
function sandboxSetting(name: string): string {
  return process.env[`MOCK_SANDBOX_${name}`] !== undefined && process.env[`SANDBOX_${name}`] === undefined
    ? `MOCK_SANDBOX_${name}`
    : `SANDBOX_${name}`;
}

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a non-negative number; got "${raw}".`);
    process.exit(2);
  }
  return value;
}

function engineFrom(name: string): SandboxEngine {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return "auto";
  if (raw === "auto" || raw === "cpython" || raw === "pyodide") return raw;
  console.error(`${name} must be auto, cpython or pyodide; got "${raw}".`);
  process.exit(2);
}

/** SANDBOX=jupyter: the programs run on the Jupyter server JUPYTER_URL names, with a kernel per run or per chat. */
function sandboxFromEnv() {
  const kind = process.env.SANDBOX ?? "";
  // "mock": what the kit's own sandbox was called before.
  if (kind === "" || kind === "builtin" || kind === "mock") return undefined;
  const url = process.env.JUPYTER_URL ?? "";
  const token = process.env.JUPYTER_TOKEN ?? "";
  const kernels = process.env.JUPYTER_KERNELS || "per-run";
  if (kind !== "jupyter" || !url || !token || (kernels !== "per-run" && kernels !== "per-chat")) {
    console.error(
      "SANDBOX must be unset (the kit's own sandbox), builtin or jupyter; jupyter needs JUPYTER_URL, JUPYTER_TOKEN and JUPYTER_KERNELS per-run or per-chat.",
    );
    process.exit(2);
  }
  // A kernel runs with whatever rights its Jupyter server gives it: on a server beside this one, as this
  // user, a program reads the chats' database and its secrets. Only an operator who isolated the kernels says so.
  if (process.env.JUPYTER_ISOLATED !== "1") {
    console.error(
      "SANDBOX=jupyter: a Jupyter kernel is not a sandbox. Each program runs with the rights the Jupyter server gives its kernels; " +
        "on a local server that is this user, who can read the chats in data/ and their secrets. Run the kernels isolated " +
        "(Enterprise Gateway's pods, a container per kernel; docs/jupyter.md), then set JUPYTER_ISOLATED=1.",
    );
    process.exit(2);
  }
  return createJupyterSandbox({ url, token, kernels });
}

// A server left running for strangers: one request's failure that escaped its
// handler is logged, never the end of everyone's session.
process.on("unhandledRejection", (reason) => console.error("[execute-code-ui harness] unhandled rejection:", reason));
process.on("uncaughtException", (error) => console.error("[execute-code-ui harness] uncaught exception:", error));

// A real model when the environment names an OpenAI-compatible endpoint; the scripted tutor otherwise.
const real = await modelFromEnv().catch((error: unknown) => {
  if (!(error instanceof ModelEnvError)) throw error;
  console.error(error.message);
  process.exit(2);
});

const harness = await startHarness({
  ...(real ? { model: real.model, modelName: real.name } : {}),
  port: numberFrom("PORT", 3210),
  host: process.env.HOST || "127.0.0.1",
  toolTimeoutMs: numberFrom("EXECUTE_CODE_TIMEOUT_MS", 60_000),
  sandboxUrl: process.env.EXECUTE_CODE_SANDBOX_URL || undefined,
  sandbox: sandboxFromEnv(),
  // The sandbox runs in a process of its own, as in a deployment: the chat's thread does only the chat's work.
  sandboxProcess: process.env.HARNESS_SANDBOX_IN_PROCESS !== "1",
  operatorToken: process.env.HARNESS_OPERATOR_TOKEN || undefined,
  rateLimit: {
    max: numberFrom(sandboxSetting("RATE_LIMIT"), 20),
    windowMs: numberFrom(sandboxSetting("RATE_WINDOW_MS"), 30_000),
  },
  maxRunMs: numberFrom(sandboxSetting("MAX_RUN_MS"), 10_000),
  poolSize: numberFrom(sandboxSetting("POOL_SIZE"), 2),
  maxConcurrentRuns: numberFrom(sandboxSetting("MAX_CONCURRENT_RUNS"), 4),
  memoryLimitMb: process.env[sandboxSetting("MEMORY_MB")] ? numberFrom(sandboxSetting("MEMORY_MB"), 0) : undefined,
  engine: engineFrom(sandboxSetting("ENGINE")),
  allowPerProcessMemoryLimit: process.env[sandboxSetting("PER_PROCESS_LIMITS")] === "1",
  chatRateLimit: { max: numberFrom("HARNESS_CHAT_REQUESTS_PER_MINUTE", 60), windowMs: 60_000 },
  // 0 sets no bound on what reads may send.
  chatReadBudget: {
    bytes: numberFrom("HARNESS_CHAT_READ_MB_PER_MINUTE", 32) * 1024 * 1024 || Infinity,
    windowMs: 60_000,
  },
  trustProxy: process.env.HARNESS_TRUST_PROXY === "1",
  participantCookie: {
    newParticipantLimit: { max: numberFrom("HARNESS_NEW_PARTICIPANTS_PER_MINUTE", 10), windowMs: 60_000 },
    newParticipantDailyLimit: { max: numberFrom("HARNESS_NEW_PARTICIPANTS_PER_DAY", 200), windowMs: 86_400_000 },
  },
  // 0 sets no bound on what all participants' chats take together.
  chatLimits: { maxStoredBytes: numberFrom("HARNESS_CHAT_STORE_MB", 2048) * 1024 * 1024 || Infinity },
  allowedOrigins: (process.env.HARNESS_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean),
  allowedHosts: (process.env.HARNESS_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
  chunkDelayMs: numberFrom("SCRIPTED_MODEL_DELAY_MS", 30),
  approvalTtlMs: numberFrom("EXECUTE_CODE_APPROVAL_TTL_MS", 600_000),
  // Chats: PostgreSQL when DATABASE_URL is set, else SQLite (a file, or :memory:).
  database: process.env.DATABASE_URL || process.env.HARNESS_DATABASE || undefined,
  dataDir: process.env.HARNESS_DATA_DIR || "data",
  // 0 keeps chats until their owners delete them.
  chatRetentionMs: numberFrom("HARNESS_CHAT_RETENTION_DAYS", 7) * 86_400_000 || Infinity,
  // Several harnesses on one store follow each other's runs through Redis.
  redisUrl: process.env.REDIS_URL || undefined,
  log: process.env.HARNESS_LOG ? (event) => console.log(JSON.stringify(event)) : undefined,
});

console.log(`execute-code-ui harness: ${harness.url}`);
console.log(
  real
    ? `Model: ${real.name}.`
    : "Model: the scripted tutor (set OPENAI_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL, for a real one).",
);
if (process.env.SANDBOX === "jupyter") {
  console.log(
    `Python: Jupyter kernels at ${process.env.JUPYTER_URL} (${process.env.JUPYTER_KERNELS || "per-run"}); what isolates them is that server's (docs/jupyter.md).`,
  );
} else if (!process.env.EXECUTE_CODE_SANDBOX_URL) {
  // Say how programs are isolated on this machine (the executor has already warned about anything missing).
  const health = (await harness.health()) as {
    executor?: string;
    isolation?: { network?: string; processes?: string };
  };
  if (health.isolation) {
    console.log(
      `Python sandbox (${health.executor}): network ${health.isolation.network}; processes ${health.isolation.processes}.`,
    );
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void harness.close().then(() => process.exit(0));
  });
}
