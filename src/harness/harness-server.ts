import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair } from "jose";
import { buildExecuteCodeTool, EXECUTE_CODE_SYSTEM_PROMPT, type ExecuteCodeLogEvent } from "../server/index.js";
import { createChatHandler } from "./chat-handler.js";
import { createParticipantCookies, type ParticipantCookieOptions } from "./participant-cookie.js";
import type { Executor } from "./sandbox/executor.js";
import { createMockSandbox } from "./sandbox/mock-sandbox.js";
import { createPyodideExecutor } from "./sandbox/pyodide-executor.js";
import type { RateLimit } from "./sandbox/rate-limiter.js";
import { createScriptedModel } from "./scripted-model.js";
import { createStaticHandler } from "./static-files.js";

export interface HarnessOptions {
  /** 0 picks a free port. Default 3210. */
  port?: number;
  /** Default 127.0.0.1: the harness is for this machine only. */
  host?: string;
  /** The server tool's own time limit per call. Default 60 000 ms. */
  toolTimeoutMs?: number;
  /** Use this sandbox service instead of the mock one (the mock is then not started). */
  sandboxUrl?: string;
  /** The mock sandbox's limit per (tenant, user). Default 20 per 30 s. */
  rateLimit?: RateLimit;
  /** The mock sandbox's longest run. Default 10 000 ms. */
  maxRunMs?: number;
  /** What runs the programs. Default: Pyodide. */
  executor?: Executor;
  /** Pyodide interpreters started ahead. Default 2. */
  poolSize?: number;
  /** Programs the Pyodide executor runs at once. Default 4. */
  maxConcurrentRuns?: number;
  /** Memory of one run's interpreter process, in MB. Default 768. */
  memoryLimitMb?: number;
  /** Pause between the scripted model's streamed chunks. Default 30 ms. */
  chunkDelayMs?: number;
  /** How long an approval request stays answerable. Default 10 minutes. */
  approvalTtlMs?: number;
  /**
   * Who is asking, from your own sign-in, instead of the harness's cookie:
   * return the participant id, or null to answer 401. The rate limit and the
   * cost hook key on it.
   */
  getParticipantId?: (req: IncomingMessage) => string | null | Promise<string | null>;
  /** The participant cookie (used when getParticipantId is not given). */
  participantCookie?: ParticipantCookieOptions;
  /** Other origins whose pages may call /api/chat and /api/generate. Default: none. */
  allowedOrigins?: string[];
  /** Folder of the built demo page. */
  demoDir?: string;
  log?: (event: ExecuteCodeLogEvent | { type: string; [key: string]: unknown }) => void;
}

export interface RunningHarness {
  url: string;
  port: number;
  close(): Promise<void>;
}

const ISSUER = "execute-code-ui-harness";
const AUDIENCE = "sandbox";

/**
 * Starts the whole chain on one port: the demo page, `POST /api/chat` and
 * `POST /api/generate` (the scripted model with the real server tool), and the mock sandbox service
 * (`POST /v1/exec`) that the tool calls over loopback HTTP. No key, no network.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<RunningHarness> {
  const host = options.host ?? "127.0.0.1";
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
  const log = options.log ?? (() => undefined);

  const sandbox = options.sandboxUrl
    ? null
    : createMockSandbox({
        publicKey,
        algorithms: ["EdDSA"],
        issuer: ISSUER,
        audience: AUDIENCE,
        executor:
          options.executor ??
          createPyodideExecutor({
            poolSize: options.poolSize,
            maxConcurrentRuns: options.maxConcurrentRuns,
            memoryLimitMb: options.memoryLimitMb,
          }),
        rateLimit: options.rateLimit,
        maxRunMs: options.maxRunMs,
      });

  const serveDemo = createStaticHandler(
    options.demoDir ?? fileURLToPath(new URL("../demo/", import.meta.url)),
  );
  let sandboxUrl = options.sandboxUrl ?? "";
  const signing = {
    privateKey: await exportJWK(privateKey),
    algorithm: "EdDSA" as const,
    issuer: ISSUER,
    audience: AUDIENCE,
    lifetimeSeconds: 60,
  };
  const cookies = createParticipantCookies(options.participantCookie);
  const handlers = createChatHandler({
    model: createScriptedModel({ chunkDelayMs: options.chunkDelayMs }),
    system: EXECUTE_CODE_SYSTEM_PROMPT,
    approvalTtlMs: options.approvalTtlMs,
    allowedOrigins: options.allowedOrigins,
    // Each browser is its own participant; what a client says about itself is never asked.
    participantId: options.getParticipantId ?? ((req, res) => cookies.identify(req, res)),
    tools: (_req, { participantId }) => ({
      execute_code: buildExecuteCodeTool({
        sandboxUrl,
        signing,
        participantId: participantId!,
        tenantId: "demo-course",
        chatbotId: "harness",
        timeoutMs: options.toolTimeoutMs,
        log,
      }),
    }),
  });

  const server = createServer((req, res) => {
    if (sandbox?.handle(req, res)) return;
    const path = (req.url ?? "/").split("?")[0];
    const endpoint = path === "/api/chat" ? handlers.chat : path === "/api/generate" ? handlers.generate : null;
    if (endpoint) {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      endpoint(req, res).catch((error: unknown) => {
        log({ type: "chat_error", message: error instanceof Error ? error.message : String(error) });
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("The chat failed.");
      });
      return;
    }
    serveDemo(req, res).catch(() => res.writeHead(500).end());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3210, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  if (!options.sandboxUrl) sandboxUrl = url;

  return {
    url,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox?.close();
    },
  };
}
