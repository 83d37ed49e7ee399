// Over 300 lines: the harness's composition root (the sandbox, the store,
// the chat endpoints, the demo's routes and headers) wired in one function;
// each part it wires is a module of its own, its options harness-options.ts.

import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { exportJWK } from "jose";
import {
  createExecuteCodeTool,
  createChatEndpoints,
  createRunStreams,
  createRunFileRoute,
  createSandboxFiles,
  createUploadRoute,
  type ChatFile,
  type SandboxFiles,
  createPostgresChatStore,
  createSqliteChatStore,
  EXECUTE_CODE_SYSTEM_PROMPT,
  gateCodeExecution,
  type ChatStore,
  type GateOptions,
} from "../server/index.js";
import { sendWebResponse, toWebRequest } from "../server/chat/node-adapter.js";
import { matchChatRoute } from "../server/chat/routes.js";
import { createChatHandler } from "./chat-handler.js";
import { clientAddress, isLoopback } from "./client-address.js";
import { limitConnections } from "./connection-limits.js";
import { addressKey, createParticipantCookies } from "./participant-cookie.js";
import { createPyodideFileHandler } from "./pyodide-files.js";
import { createReadBudget } from "./read-budget.js";
import { HttpRefusal } from "../server/http/http.js";
import { sendJson, sendRefusal } from "../server/http/node-json.js";
import { checkSameOrigin, checkSameOriginJson, rateLimited } from "./request-guard.js";
import { createSandbox } from "../sandbox/service.js";
import { SANDBOX_AUDIENCE, sandboxKeys } from "../sandbox/sandbox-keys.js";
import { createDefaultExecutor } from "../sandbox/default-executor.js";
import { createRateLimiter } from "../sandbox/rate-limiter.js";
import { startSandboxProcess } from "./sandbox-process.js";
import { createScriptedModel } from "./scripted-model.js";
import { createStaticHandler } from "./static-files.js";
import {
  DEFAULT_CHAT_RATE_LIMIT,
  DEFAULT_HARNESS_STORED_BYTES,
  type HarnessOptions,
  type RunningHarness,
} from "./harness-options.js";
import { errorMessage } from "../contract/error-message.js";

/** A publisher and a subscriber on one Redis, for runs followed through any harness that shares it. */
async function connectRedis(url: string) {
  // Loaded only when asked for: `redis` is an optional peer of the kit.
  const { createClient } = await import("redis");
  const publisher = createClient({ url });
  const subscriber = publisher.duplicate();
  await Promise.all([publisher.connect(), subscriber.connect()]);
  return {
    publisher,
    subscriber,
    close: async () => void (await Promise.all([publisher.quit(), subscriber.quit()])),
  };
}

async function openStore(options: HarnessOptions): Promise<ChatStore> {
  const database = options.database;
  if (database && typeof database === "object") return database;
  if (database && /^postgres(ql)?:\/\//.test(database)) return createPostgresChatStore({ connectionString: database });
  if (database) return createSqliteChatStore({ path: database });
  return createSqliteChatStore({ dataDir: options.dataDir ?? "data" });
}

const GATE_KEYS = ["confirmCodeExecution", "confirmAllTools", "bypassPermissions"] as const;

/** The approval-gate switches a request carries, kept with the chat; undefined when it carries none. */
function gateOptionsOf(body: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!GATE_KEYS.some((key) => key in body)) return undefined;
  return Object.fromEntries(GATE_KEYS.map((key) => [key, body[key] === true]));
}

const ISSUER = "execute-code-ui-harness";
const TENANT_ID = "demo-course";
/** A run's file, for the demo's cards: `GET /api/files/{sessionId}/{fileId}`. */
const RUN_FILE_PATH = /^\/api\/files\/[\w-]{1,100}\/[\w-]{1,100}$/;
/** A student's files, from the demo's composer: `POST /api/uploads` (multipart). */
const UPLOAD_PATH = "/api/uploads";
/** Reads of one participant being sent at once: a live run's stream is one (a chat takes 8 followers). */
const MAX_READS_IN_FLIGHT = 16;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Every answer: no framing, no sniffing, no referrer, and a CSP for the
 * demo page (its own scripts and workers, WebAssembly for Pyodide, inline
 * styles for highlighted code, images from itself).
 */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** Connections the tool's calls to the sandbox may hold: its runs, uploads and downloads, each bounded on their own. */
const INTERNAL_CONNECTIONS = 1024;

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });

/**
 * Starts the whole chain on one port: the demo page, `POST /api/chat` and
 * `POST /api/generate` (the scripted model with the real server tool), and the sandbox service
 * (`POST /v1/exec`), which the tool calls on a loopback port of its own. No key, no network.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<RunningHarness> {
  const host = options.host ?? "127.0.0.1";
  const keys = await sandboxKeys(ISSUER);
  const log = options.log ?? (() => undefined);

  const executorOptions = {
    engine: options.engine,
    cpython: {
      memoryLimitMb: options.memoryLimitMb,
      allowPerProcessMemoryLimit: options.allowPerProcessMemoryLimit,
    },
    pyodide: {
      poolSize: options.poolSize,
      maxConcurrentRuns: options.maxConcurrentRuns,
      memoryLimitMb: options.memoryLimitMb,
    },
  };
  // Slots are handed out fairly before the executor is asked, so it never queues.
  const schedule = { maxRunning: options.maxConcurrentRuns ?? 4 };
  const inChild = !!options.sandboxProcess && !options.sandboxUrl && !options.executor;
  const child = inChild
    ? await startSandboxProcess({
        publicKey: await exportJWK(keys.verification.publicKey),
        algorithm: "EdDSA",
        issuer: ISSUER,
        audience: SANDBOX_AUDIENCE,
        executor: executorOptions,
        rateLimit: options.rateLimit,
        maxRunMs: options.maxRunMs,
        schedule,
        maxConnections: INTERNAL_CONNECTIONS,
      })
    : null;
  const executor = options.sandboxUrl || child ? null : (options.executor ?? createDefaultExecutor(executorOptions));
  const sandbox = !executor
    ? null
    : createSandbox({
        ...keys.verification,
        executor,
        rateLimit: options.rateLimit,
        maxRunMs: options.maxRunMs,
        schedule,
      });
  // The sandbox's own health, as its service tells it.
  const sandboxHealth = async (): Promise<Record<string, unknown>> => {
    if (!sandboxUrl) return {};
    const answer = await fetch(new URL("/v1/health", sandboxUrl), { signal: AbortSignal.timeout(5_000) });
    return (await answer.json()) as Record<string, unknown>;
  };
  // What the model is told it may import: CPython's libraries, where it runs them (known once it has loaded them).
  // With no executor of its own (Jupyter), the sandbox says what its kernels have.
  let modules: string[] | undefined;
  // Which engine runs them, for the public health (known once the sandbox listens).
  let engine: string | undefined;
  const packages = () => {
    if (executor) modules = (executor.health?.().python as { modules?: string[] } | undefined)?.modules;
    return modules?.filter((name) => !name.includes("."));
  };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  /** The event loop's delay since the last read, in ms: a stall shows here before students report it. */
  const eventLoopDelay = () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const read = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
    delay.reset();
    return read;
  };

  let sandboxUrl = options.sandboxUrl ?? child?.url ?? "";
  const { signing } = keys;
  const store = await openStore(options);
  // Kept in the store, so that a browser is the same participant (and finds its chats) after a restart.
  const cookies = createParticipantCookies({
    trustProxy: options.trustProxy,
    ...options.participantCookie,
    secret: options.participantCookie?.secret ?? (await store.secret("participant-cookie")),
  });
  const identify =
    options.getParticipantId ?? ((req: IncomingMessage, res: ServerResponse) => cookies.identify(req, res));
  // The page brings the browser's id: its first requests, sent at once, would each be handed a new one.
  const serveDemo = createStaticHandler(options.demoDir ?? fileURLToPath(new URL("../demo/", import.meta.url)), {
    beforePage: async (req, res) => {
      if (req.method !== "GET") return;
      // Too many new ids from this address: the page still loads, and its requests say why.
      await Promise.resolve(identify(req, res)).catch((error: unknown) => {
        if (!(error instanceof HttpRefusal)) throw error;
      });
    },
  });
  const chatRequests = createRateLimiter(options.chatRateLimit ?? DEFAULT_CHAT_RATE_LIMIT);
  /** Counts one chat request of this participant, or refuses it with 429. */
  const countChatRequest = (participantId: string) => {
    const taken = chatRequests.take(participantId);
    if (!taken.allowed) {
      throw rateLimited(
        "rate_limited",
        (seconds) => `Too many chat requests. Try again in ${seconds} s.`,
        taken.retryAfterMs,
      );
    }
  };
  const readBudget = options.chatReadBudget ?? { bytes: 32 * 1024 * 1024, windowMs: 60_000 };
  const participantReads = createReadBudget(readBudget);
  // One address holds many cookies (and a class behind one NAT): it may read eight participants' worth.
  const addressReads = createReadBudget({ ...readBudget, bytes: readBudget.bytes * 8 });
  const readsInFlight = new Map<string, number>();
  /**
   * Refuses a read with 429 past its participant's or its address's budget, or with sixteen of the
   * participant's reads still being sent (a budget is charged only once an answer is sent); else
   * charges what its answer sends, once sent.
   */
  const countChatRead = (req: IncomingMessage, res: ServerResponse, participantId: string) => {
    const address = clientOf(req);
    const budgets = [
      [participantReads, participantId],
      ...(address ? [[addressReads, address] as const] : []),
    ] as const;
    for (const [budget, key] of budgets) {
      const read = budget.check(key);
      if (!read.allowed) {
        throw rateLimited(
          "too_many_reads",
          (seconds) => `Too much read from the chats in a minute. Try again in ${seconds} s.`,
          read.retryAfterMs,
        );
      }
    }
    const inFlight = readsInFlight.get(participantId) ?? 0;
    if (inFlight >= MAX_READS_IN_FLIGHT) {
      throw rateLimited("too_many_reads", () => "Too many reads at once. Try again in a moment.", 1000);
    }
    readsInFlight.set(participantId, inFlight + 1);
    const before = req.socket.bytesWritten;
    res.once("close", () => {
      const left = readsInFlight.get(participantId)! - 1;
      if (left) readsInFlight.set(participantId, left);
      else readsInFlight.delete(participantId);
      for (const [budget, key] of budgets) budget.charge(key, req.socket.bytesWritten - before);
    });
  };
  // Made on first use: the sandbox's URL is known once the server listens.
  let sandboxFiles: SandboxFiles | null = null;
  // A sandbox that holds the students' uploads itself (Jupyter) takes them; else the sandbox does.
  const filesOfSandbox = () =>
    (sandboxFiles ??=
      options.sandbox?.studentFiles?.(TENANT_ID) ?? createSandboxFiles({ sandboxUrl, signing, tenantId: TENANT_ID }));
  const attachments: SandboxFiles = {
    upload: (...args) => filesOfSandbox().upload(...args),
    read: (...args) => filesOfSandbox().read(...args),
    describe: (...args) => filesOfSandbox().describe(...args),
  };
  const toolsFor = ({
    participantId,
    files,
    chatId,
    client,
  }: {
    participantId: string;
    files?: ChatFile[];
    chatId?: string;
    client?: string;
  }) => ({
    execute_code: createExecuteCodeTool({
      ...(options.sandbox ? { sandbox: options.sandbox } : { sandboxUrl, signing }),
      participantId,
      ...(chatId ? { chatId } : {}),
      ...(client ? { clientId: client } : {}),
      files,
      tenantId: TENANT_ID,
      chatbotId: "harness",
      timeoutMs: options.toolTimeoutMs,
      packages: packages(),
      log,
    }),
  });
  const pubSub = options.redisUrl ? await connectRedis(options.redisUrl) : null;
  const model = options.model ?? createScriptedModel({ chunkDelayMs: options.chunkDelayMs });
  const chats = createChatEndpoints({
    store,
    ...(pubSub ? { streams: createRunStreams(pubSub) } : {}),
    model,
    instructions: EXECUTE_CODE_SYSTEM_PROMPT,
    approvalTtlMs: options.approvalTtlMs,
    busyWaitMs: options.busyWaitMs,
    // The gate's switches come with the demo's requests and stay with the chat.
    readOptions: gateOptionsOf,
    tools: ({ options: chatOptions, ...context }) => gateCodeExecution(toolsFor(context), chatOptions as GateOptions),
    // The student's files: attached in the composer, uploaded through /api/uploads, checked here.
    attachments,
    // A chat may run execute_code in the browser instead of the sandbox.
    clientReplaceableTools: ["execute_code"],
    limits: {
      maxStoredBytesPerParticipant: 5 * 1024 * 1024,
      maxStoredBytes: DEFAULT_HARNESS_STORED_BYTES,
      ...options.chatLimits,
    },
    retentionMs: options.chatRetentionMs ?? 7 * 86_400_000,
    log,
  });
  // Python's files for the browser are sent without a cookie: bounded by address, and in all.
  const servePyodide = createPyodideFileHandler("/pyodide/", { clientOf: (req) => clientOf(req) });
  const handlers = createChatHandler({
    model,
    system: EXECUTE_CODE_SYSTEM_PROMPT,
    approvalTtlMs: options.approvalTtlMs,
    allowedOrigins: options.allowedOrigins,
    // Each browser is its own participant; what a client says about itself is never asked.
    participantId: async (req, res) => {
      const participantId = await identify(req, res);
      if (participantId !== null) countChatRequest(participantId);
      return participantId;
    },
    tools: (req, { participantId }) => toolsFor({ participantId: participantId!, client: clientOf(req) }),
  });

  /** Who is asking, after the same-origin rules: null when the request was refused (and answered). */
  async function admit(req: IncomingMessage, res: ServerResponse): Promise<string | null> {
    try {
      // A DELETE carries no body; like a GET, it needs only the origin check (another site cannot send one without CORS).
      // An upload is multipart; its origin is checked as a read's is (a browser sends Origin with any cross-site POST).
      if (req.method === "GET" || req.method === "DELETE" || (req.url ?? "").split("?")[0] === UPLOAD_PATH)
        checkSameOrigin(req, options.allowedOrigins);
      else checkSameOriginJson(req, options.allowedOrigins);
      const participantId = await identify(req, res);
      if (participantId === null) throw new HttpRefusal(401, "unauthenticated", "Sign in to use the chat.");
      if (req.method !== "GET") countChatRequest(participantId);
      else countChatRead(req, res, participantId);
      return participantId;
    } catch (error) {
      if (!(error instanceof HttpRefusal)) throw error;
      sendRefusal(req, res, error);
      return null;
    }
  }

  /** A request's client, for caps per client; none for loopback that no trusted proxy on this host named. */
  const clientOf = (req: IncomingMessage) => {
    const address = clientAddress(req, options.trustProxy);
    return isLoopback(address) ? undefined : addressKey(address);
  };

  let runFiles: ReturnType<typeof createRunFileRoute> | null = null;
  let uploads: ReturnType<typeof createUploadRoute> | null = null;
  const uploadClients = new WeakMap<Request, string>();

  async function serveChats(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const isFile = RUN_FILE_PATH.test(path);
    const isUpload = path === UPLOAD_PATH;
    const route = matchChatRoute(path);
    if (!route && !isFile && !isUpload && path !== "/api/session")
      return sendRefusal(req, res, new HttpRefusal(404, "not_found", "There is no such endpoint."));
    const methods = route ? Object.keys(route.methods) : isUpload ? ["POST"] : ["GET"];
    if (!methods.includes(req.method ?? "")) {
      res.writeHead(405, { allow: methods.join(", ") }).end();
      return;
    }
    const participantId = await admit(req, res);
    if (participantId === null) return;
    if (path === "/api/session") {
      // A real model is named for the demo's header; the scripted one is the default and goes unsaid.
      const session = {
        participant: participantId,
        ...(options.model ? { model: options.modelName ?? "a real model" } : {}),
      };
      return sendJson(res, 200, session, { "cache-control": "no-store" });
    }
    if (isUpload) {
      // Many cookies of one address share that address's part of the uploads' memory.
      uploads ??= createUploadRoute({
        sandboxUrl,
        signing,
        tenantId: TENANT_ID,
        sandboxFiles: attachments,
        clientOf: (request) => uploadClients.get(request),
      });
      const request = toWebRequest(req, res);
      // Behind a proxy on this host every student is loopback: no address to tell them apart by.
      const client = clientOf(req);
      if (client) uploadClients.set(request, client);
      return sendWebResponse(res, await uploads.handle(request, { participantId }));
    }
    if (isFile) {
      // The sandbox answers only the run's owner: a file of another participant is a 404.
      // A sandbox that holds its runs' figures itself (Jupyter) serves them; the sandbox serves its own.
      runFiles ??= options.sandbox?.readFile
        ? createRunFileRoute({ sandbox: options.sandbox, tenantId: TENANT_ID })
        : createRunFileRoute({ sandboxUrl, signing, tenantId: TENANT_ID });
      return sendWebResponse(res, await runFiles.handle(toWebRequest(req, res), { participantId }));
    }
    const client = clientOf(req);
    const response = await chats.handle(toWebRequest(req, res), { participantId, ...(client ? { client } : {}) });
    await sendWebResponse(res, response ?? new Response("Not found", { status: 404 }));
  }

  /**
   * `GET /v1/health`: that the service is up and what runs the programs, for
   * anyone; the counts and the event loop's delay for an operator's token.
   */
  async function serveHealth(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = { "cache-control": "no-store" };
    // Programs run elsewhere (Jupyter): the health says so, not the sandbox's engine that keeps only uploads.
    if (options.sandbox) {
      return sendJson(
        res,
        200,
        { status: "ok", sandbox: options.sandbox.kind, keepsVariables: !!options.sandbox.keepsVariables },
        headers,
      );
    }
    if (isOperator(req)) return sendJson(res, 200, await operatorHealth(), headers);
    sendJson(res, 200, { status: "ok", ...(engine ? { executor: engine } : {}) }, headers);
  }

  // The event loop's delay is told even when the sandbox does not answer: a stall is when it matters most.
  const operatorHealth = async () => ({
    ...(await sandboxHealth().catch(() => ({ status: "sandbox_unreachable" }))),
    eventLoopDelayMs: eventLoopDelay(),
  });

  const isOperator = (req: IncomingMessage) => {
    const token = options.operatorToken;
    if (!token) return false;
    const said = Buffer.from(req.headers.authorization ?? "");
    const expected = Buffer.from(`Bearer ${token}`);
    return said.length === expected.length && timingSafeEqual(said, expected);
  };

  const fail = (res: ServerResponse) => (error: unknown) => {
    log({ type: "chat_error", message: errorMessage(error) });
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("The chat failed.");
  };

  const loopback = LOOPBACK.has(host);
  const hostAllowed = (req: IncomingMessage) => {
    if (!loopback) return true;
    const said = (req.headers.host ?? "").toLowerCase();
    const { port } = server.address() as AddressInfo;
    return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...(options.allowedHosts ?? [])].includes(said);
  };

  const server = createServer((req, res) => {
    if (!hostAllowed(req)) {
      res.writeHead(421, { "content-type": "text/plain" }).end("This server does not answer for that host name.");
      return;
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/v1/health" && req.method === "GET") {
      serveHealth(req, res).catch(fail(res));
      return;
    }
    if (sandbox?.handle(req, res)) return;
    if (servePyodide(req, res)) return;
    if (path.startsWith("/api/") && path !== "/api/generate") {
      serveChats(req, res, path).catch(fail(res));
      return;
    }
    const endpoint = path === "/api/generate" ? handlers.generate : null;
    if (endpoint) {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      endpoint(req, res).catch(fail(res));
      return;
    }
    serveDemo(req, res).catch(() => res.writeHead(500).end());
  });

  limitConnections(server, options.connections);
  await listen(server, options.port ?? 3210, host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  // The tool's own calls to the sandbox have a listener of their own on loopback: they never
  // wait on the public port's connections, which loopback clients are not limited on (a proxy on
  // this host stands for everyone).
  const internal = sandbox
    ? createServer((req, res) => {
        // Only this process calls it by that name; any other is a page's DNS rebinding.
        const own = `127.0.0.1:${(internal!.address() as AddressInfo).port}`;
        if (req.headers.host !== own || !sandbox.handle(req, res)) res.writeHead(404).end();
      })
    : null;
  if (internal) {
    internal.maxConnections = INTERNAL_CONNECTIONS;
    await listen(internal, 0, "127.0.0.1");
    sandboxUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  }
  // Which engine runs the programs, for the public health; and the libraries the model is told of.
  const told = sandboxUrl && !options.sandboxUrl ? await sandboxHealth() : {};
  engine = typeof told.executor === "string" ? told.executor : undefined;
  modules ??= (told.python as { modules?: string[] } | undefined)?.modules;

  return {
    url,
    port,
    store,
    health: operatorHealth,
    async close() {
      for (const listener of internal ? [server, internal] : [server]) {
        listener.closeAllConnections();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
      // Runs in flight are stopped and their ends stored before the store closes.
      await chats.close();
      await sandbox?.close();
      await child?.close();
      await options.sandbox?.close?.();
      await pubSub?.close();
      await store.close();
    },
  };
}
