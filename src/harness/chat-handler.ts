import type { IncomingMessage, ServerResponse } from "node:http";
import {
  convertToModelMessages,
  generateText,
  pipeUIMessageStreamToResponse,
  stepCountIs,
  streamText,
  type LanguageModel,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { HttpRefusal, readJsonBytes } from "../server/http/http.js";
import { sendJson, sendRefusal } from "../server/http/node-json.js";
import { checkSameOriginJson } from "./request-guard.js";
import { createApprovalExpiry, gateCodeExecution, type GateOptions } from "../server/index.js";
import { toldExpired } from "../server/tool/approval-expiry.js";
import { errorMessage } from "../contract/error-message.js";

/** Longest `/api/generate` prompt: as long as a chat message may be. */
const MAX_PROMPT_CHARS = 100_000;

export interface ChatHandlerOptions {
  model: LanguageModel;
  /** The tools of one request; a function so each chat can get its own context (the caller's participant id among it). */
  tools: (request: IncomingMessage, context: { participantId: string | null }) => ToolSet;
  /**
   * Who is asking, from the host's own sign-in (a session cookie, a header
   * its proxy sets): never from what the client says about itself. Return
   * null to refuse the request with 401, or throw a `HttpRefusal`. Without
   * it, requests carry no participant id.
   */
  participantId?: (request: IncomingMessage, response: ServerResponse) => string | null | Promise<string | null>;
  /**
   * Other origins whose pages may call these endpoints.
   * @default none but the server's own
   */
  allowedOrigins?: readonly string[];
  system?: string;
  /**
   * How long an approval request stays answerable.
   * @default 10 minutes
   */
  approvalTtlMs?: number;
}

/** A prompt of 100,000 characters, each escaped at its longest, and the options beside it. */
const MAX_BODY_BYTES = 1024 * 1024;

const badRequest = (message: string) => new HttpRefusal(400, "invalid_request", message);

async function readJson(req: IncomingMessage, sender: string | undefined): Promise<Record<string, unknown>> {
  const body = await readJsonBytes(req, MAX_BODY_BYTES, 0, sender);
  if (body && typeof body === "object") return body as Record<string, unknown>;
  throw badRequest("The request body is not a JSON object.");
}

function gateOptions(body: Record<string, unknown>): GateOptions {
  return {
    confirmCodeExecution: body.confirmCodeExecution === true,
    confirmAllTools: body.confirmAllTools === true,
    bypassPermissions: body.bypassPermissions === true,
  };
}

/** Checks what a request is and who sent it before anything is read or run. */
async function admit(
  req: IncomingMessage,
  res: ServerResponse,
  options: ChatHandlerOptions,
): Promise<{ participantId: string | null } | null> {
  try {
    checkSameOriginJson(req, options.allowedOrigins);
    if (!options.participantId) return { participantId: null };
    const participantId = await options.participantId(req, res);
    if (participantId === null) throw new HttpRefusal(401, "unauthenticated", "Sign in to use the chat.");
    return { participantId };
  } catch (error) {
    if (!(error instanceof HttpRefusal)) throw error;
    sendRefusal(req, res, error);
    return null;
  }
}

/** Aborted when the browser hangs up: stop means stop, for the model and for a running tool. */
function hangUpSignal(res: ServerResponse): AbortSignal {
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  return abort.signal;
}

/**
 * The chat endpoints of the harness.
 *
 * @deprecated Since 2026-12-01 (0.3.0); removed in 0.4.0. Its `chat` is the
 * old stateless `/api/chat`, which takes the whole history from the client:
 * use `createChatEndpoints` from `execute-code-ui/server`, whose store is the
 * truth. `generate` goes with it.
 *
 * Both accept only a JSON POST from the server's own origin (or
 * `allowedOrigins`): 415 for any other body type, 403 for another origin.
 * The participant id comes from `participantId`, never from the request's
 * own headers.
 *
 * `chat` (`POST /api/chat`) streams the answer as an AI SDK UI message stream.
 * It takes `{ messages, confirmCodeExecution?, confirmAllTools?,
 * bypassPermissions? }` and applies `gateCodeExecution`. Approvals are signed,
 * and they expire.
 *
 * `generate` (`POST /api/generate`) returns one finished answer as JSON for
 * `{ prompt }`. It cannot show an approval prompt, so it refuses a request
 * that asks for the gate instead of running code unasked.
 */
export function createChatHandler(options: ChatHandlerOptions) {
  const expiry = createApprovalExpiry({ ttlMs: options.approvalTtlMs });
  // Signs approval requests so that an answer only approves the exact call that was shown.
  const approvalSecret = crypto.getRandomValues(new Uint8Array(32));

  /** The caller and the request's JSON body, `check`ed; null once a refusal has been sent. */
  async function admitWithBody(
    req: IncomingMessage,
    res: ServerResponse,
    check: (body: Record<string, unknown>) => void,
  ): Promise<{ caller: { participantId: string | null }; body: Record<string, unknown> } | null> {
    const caller = await admit(req, res, options);
    if (!caller) return null;
    try {
      const body = await readJson(req, caller.participantId ?? undefined);
      check(body);
      return { caller, body };
    } catch (error) {
      sendJson(res, error instanceof HttpRefusal ? error.status : 400, { error: errorMessage(error) });
      return null;
    }
  }

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await admitWithBody(req, res, (body) => {
      if (!Array.isArray(body.messages)) throw badRequest("The request has no messages.");
    });
    if (!request) return;
    const { caller, body } = request;
    const { messages, expiredToolCallIds } = expiry.expireStale(body.messages as UIMessage[]);
    const tools = gateCodeExecution(options.tools(req, caller), gateOptions(body));
    const result = streamText({
      model: options.model,
      system: options.system,
      messages: await convertToModelMessages(messages, { tools, ignoreIncompleteToolCalls: true }),
      tools,
      stopWhen: stepCountIs(5),
      abortSignal: hangUpSignal(res),
      experimental_toolApprovalSecret: approvalSecret,
    });
    const stream = result
      .toUIMessageStream({
        originalMessages: messages,
        onError: errorMessage,
      })
      .pipeThrough(
        new TransformStream<UIMessageChunk, UIMessageChunk>({
          transform(chunk, controller) {
            // Start the clock before the browser can see the request.
            if (chunk.type === "tool-approval-request") expiry.recordRequest(chunk.approvalId);
            controller.enqueue(toldExpired(chunk, expiredToolCallIds));
          },
        }),
      );
    pipeUIMessageStreamToResponse({ response: res, stream });
  }

  async function generate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await admitWithBody(req, res, (body) => {
      if (typeof body.prompt !== "string" || !body.prompt) throw badRequest("The request has no prompt.");
      if (body.prompt.length > MAX_PROMPT_CHARS)
        throw badRequest(`The prompt is longer than ${MAX_PROMPT_CHARS} characters.`);
    });
    if (!request) return;
    const { caller, body } = request;
    const prompt = body.prompt as string;
    const gate = gateOptions(body);
    const asked = (["confirmCodeExecution", "confirmAllTools"] as const).filter((name) => gate[name]);
    if (asked.length && !gate.bypassPermissions) {
      return sendJson(res, 400, {
        error: "approval_unavailable",
        message: `${asked.join(" and ")} cannot be honoured on /api/generate: it returns one finished answer and has no way to ask before code runs. Use /api/chat, whose client shows the approval prompt.`,
      });
    }
    const result = await generateText({
      model: options.model,
      system: options.system,
      prompt,
      tools: options.tools(req, caller),
      stopWhen: stepCountIs(5),
      abortSignal: hangUpSignal(res),
    });
    sendJson(res, 200, {
      text: result.text,
      toolResults: result.steps.flatMap((step) =>
        step.toolResults.map((r) => ({ toolName: r.toolName, output: r.output })),
      ),
    });
  }

  return { chat, generate };
}
