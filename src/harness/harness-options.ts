// What startHarness takes and returns, and its defaults: the harness's
// options type, apart from the code that wires them.

import type { IncomingMessage } from "node:http";
import type { LanguageModel } from "ai";
import type { ChatLimits, ChatLogEvent, ChatStore, ExecuteCodeLogEvent } from "../server/index.js";
import type { Sandbox } from "../server/sandbox.js";
import type { ConnectionLimits } from "./connection-limits.js";
import type { ParticipantCookieOptions } from "./participant-cookie.js";
import type { Executor } from "../sandbox/executor.js";
import type { SandboxEngine } from "../sandbox/default-executor.js";
import type { RateLimit } from "../sandbox/rate-limiter.js";

export const DEFAULT_CHAT_RATE_LIMIT: RateLimit = { max: 60, windowMs: 60_000 };
/** What all participants' chats may take in the harness's store together. */
export const DEFAULT_HARNESS_STORED_BYTES = 2 * 1024 ** 3;

export interface HarnessOptions {
  /**
   * 0 picks a free port.
   * @default 3210
   */
  port?: number;
  /** @default 127.0.0.1: the harness is for this machine only */
  host?: string;
  /**
   * The server tool's own time limit per call.
   * @default 60 000 ms
   */
  toolTimeoutMs?: number;
  /** Use this sandbox service instead of the kit's own (which is then not started). */
  sandboxUrl?: string;
  /**
   * Run the programs here instead (`createJupyterSandbox(…)`); the kit's
   * sandbox still keeps the students' files. Closed with the harness.
   */
  sandbox?: Sandbox & { close?(): Promise<void> };
  /**
   * Run the sandbox in a process of its own, as a deployment would
   * (`npm start` does): its engines, the output's framing and the students'
   * files never take the chat's thread. Ignored with `executor` (which runs
   * here) or `sandboxUrl`.
   * @default false: in this process
   */
  sandboxProcess?: boolean;
  /**
   * A bearer token for `GET /v1/health` that shows operators the counts
   * (runs, queue, interpreters) and the event loop's delay; without it the
   * health says only that the service is up and which engine runs.
   */
  operatorToken?: string;
  /**
   * The sandbox's limit per (tenant, user).
   * @default 20 per 30 s
   */
  rateLimit?: RateLimit;
  /**
   * The sandbox's longest run.
   * @default 10 000 ms
   */
  maxRunMs?: number;
  /**
   * What runs the programs.
   * @default the engine `engine` names
   */
  executor?: Executor;
  /**
   * Which Python: "cpython" (Debian's, with numpy, pandas, matplotlib, scipy
   * and sympy, under bubblewrap), "pyodide" (the standard library, anywhere),
   * or "auto" (the default): CPython where it can be isolated, else Pyodide.
   */
  engine?: SandboxEngine;
  /**
   * Pyodide interpreters started ahead.
   * @default 2
   */
  poolSize?: number;
  /**
   * Programs the Pyodide executor runs at once.
   * @default 4
   */
  maxConcurrentRuns?: number;
  /**
   * Memory of one run, in MB: for Pyodide its interpreter process; for CPython the whole run (its control group) and each process's address space.
   * @default 768 for Pyodide, 1024 for CPython
   */
  memoryLimitMb?: number;
  /**
   * Let CPython run where no control group per run can be made, with
   * per-process limits only (see `CpythonExecutorOptions.allowPerProcessMemoryLimit`).
   * @default false
   */
  allowPerProcessMemoryLimit?: boolean;
  /**
   * The model behind the chat: a real one (`modelFromEnv` reads an
   * OpenAI-compatible endpoint from the environment) with the same server
   * tool and sandbox. Default: the scripted model, which runs the fenced
   * Python block of a message exactly as written.
   */
  model?: LanguageModel;
  /** How the demo page names `model` ("gpt-4.1-mini at https://api.openai.com/v1"). */
  modelName?: string;
  /**
   * Pause between the scripted model's streamed chunks.
   * @default 30 ms
   */
  chunkDelayMs?: number;
  /**
   * How long an approval request stays answerable.
   * @default 10 minutes
   */
  approvalTtlMs?: number;
  /**
   * Who is asking, from your own sign-in, instead of the harness's cookie:
   * return the participant id, or null to answer 401. The rate limit and the
   * cost hook key on it.
   */
  getParticipantId?: (req: IncomingMessage) => string | null | Promise<string | null>;
  /** The participant cookie (used when getParticipantId is not given). */
  participantCookie?: ParticipantCookieOptions;
  /**
   * Chat requests (every POST under /api/) one participant may make: past it
   * the harness answers 429 with Retry-After, before any model or tool runs.
   * Default 60 a minute.
   */
  chatRateLimit?: RateLimit;
  /**
   * Bytes the chat's reads (every GET under /api/: chats, runs' files, live
   * output) may send one participant in a window, and eight times that to
   * one client address; past either the harness answers 429 with
   * Retry-After, as it does for a 17th read of one participant still being
   * sent. Counted in bytes, so that reading one large chat over and over
   * cannot take the server from everyone else.
   * @default 32 MiB a minute
   */
  chatReadBudget?: { bytes: number; windowMs: number };
  /**
   * Caps on what a participant's chats hold (`maxChatsPerParticipant`,
   * `maxUserMessagesPerChat`, …) and on what everyone's hold together
   * (`maxStoredBytes`: past it new chats and messages get 507 `store_full`,
   * which the demo shows, and nothing stored is lost). 2 GiB is 400
   * participants at their full 5 MiB (a class uses far less), and no more
   * than a demo's machine should give its strangers.
   * @default the chat endpoints' own, but 5 MiB of stored chats per participant and 2 GiB in all
   */
  chatLimits?: Partial<ChatLimits>;
  /**
   * Chats unchanged for this long are deleted.
   * @default 7 days: a demo's participants are strangers
   */
  chatRetentionMs?: number;
  /**
   * Other origins whose pages may call /api/chat and /api/generate.
   * @default none
   */
  allowedOrigins?: string[];
  /**
   * Host names (with port, as in the Host header) a loopback-bound harness
   * answers besides 127.0.0.1, localhost and [::1] on its port: anything
   * else is refused, so a page on another site cannot reach it through DNS
   * rebinding. A harness bound to another address answers any Host.
   */
  allowedHosts?: string[];
  /**
   * A proxy on this host (nginx, Caddy) stands in front of the harness and
   * appends each client's address to `X-Forwarded-For`: requests from
   * loopback are then counted by that address (new participant ids, reads,
   * uploads, run slots). Leave it off when anything else on the host could
   * forward requests, since the header would then be the client's own words.
   * @default false (env `HARNESS_TRUST_PROXY=1`)
   */
  trustProxy?: boolean;
  /** Open connections one address, and all, may have. */
  connections?: ConnectionLimits;
  /** Folder of the built demo page. */
  demoDir?: string;
  /**
   * Where chats are kept. Default: SQLite, in `chats.sqlite` under `dataDir`.
   * `":memory:"` keeps them in memory (tests); a file path keeps them there;
   * `postgres://…` (or `databaseUrl`) uses PostgreSQL; or pass a store.
   */
  database?: string | ChatStore;
  /**
   * A Redis URL (`redis://127.0.0.1:6379`) shared by several harnesses on one
   * store: a page then follows a run through any of them. Default: runs are
   * followed through this process only.
   */
  redisUrl?: string;
  /**
   * The folder of the default SQLite file.
   * @default `./data`
   */
  dataDir?: string;
  /**
   * How long a new message waits for a run of the same chat that is ending.
   * @default 5 000 ms
   */
  busyWaitMs?: number;
  log?: (event: ExecuteCodeLogEvent | ChatLogEvent | { type: string; [key: string]: unknown }) => void;
}

export interface RunningHarness {
  url: string;
  port: number;
  /** The chats' store (closed by close()). */
  store: ChatStore;
  /**
   * What an operator's `GET /v1/health` shows: the sandbox's own health and
   * the event loop's delay (in ms) since the last time it was read.
   */
  health(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
