import {
  convertToModelMessages,
  jsonSchema,
  JsonToSseTransformStream,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type Tool,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
  UI_MESSAGE_STREAM_HEADERS,
} from "ai";
import { expiredApprovalResult } from "../approval-expiry.js";
import { describeModelOutput } from "../model-output.js";
import {
  allCalls,
  applyAnswers,
  cancelAwaited,
  pendingApprovals,
  pendingCalls,
  type AcceptedResult,
  type ApprovalAnswer,
} from "./calls.js";
import { conflict, readAISDKSubmission, type Submission } from "./ai-sdk-request.js";
import { readDescription, summaryView, titleOf } from "./chat-list.js";
import { chatView } from "./chat-view.js";
import { json, readBody, refusal } from "./http.js";
import { createRunEnds } from "./run-ends.js";
import { createRunStreams, type RunStreams } from "./run-streams.js";
import { canMove, ChatStateConflict, isMidRun, type ChatStatus } from "./status.js";
import { moveChat, type ChatRecord, type ChatStore, type DynamicToolSpec } from "./store.js";
import {
  ChatRequestError,
  checkAnswers,
  DEFAULT_CHAT_LIMITS,
  executeCodeResultContract,
  isValidId,
  jsonSchemaContract,
  parseDynamicTools,
  userText,
  type ChatLimits,
  type RawApproval,
  type RawResult,
  type ToolResultContract,
} from "./validate.js";

/** Who is asking: decided by the host (its session, its sign-in), never read from the request body. */
export interface ChatCaller {
  participantId: string;
}

export interface ServerToolsContext {
  participantId: string;
  chatId: string;
  /** The settings the chat keeps (see `readOptions`). */
  options: Record<string, unknown>;
}

export type ChatLogEvent =
  | { type: "chat_created"; chatId: string; participantId: string; dynamicTools: string[] }
  | { type: "chat_moved"; chatId: string; from: ChatStatus; to: ChatStatus }
  | { type: "chat_refused"; chatId: string | null; status: number; code: string; message: string }
  | { type: "chat_failed"; chatId: string; message: string };

export interface ChatEndpointsOptions {
  /** Where chats live: `createSqliteChatStore()` or `createPostgresChatStore()`. */
  store: ChatStore;
  model: LanguageModel;
  /** The system prompt. Only the server sets it; a client's system messages are never read. */
  instructions?: string;
  /** The server's own tools for one run of one chat. */
  tools: (context: ServerToolsContext) => ToolSet;
  /**
   * Settings a client may choose and the chat keeps, read from the body of
   * each request that carries any (the harness: its approval-gate switches).
   * Return undefined to keep what the chat has.
   */
  readOptions?: (body: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** Server tools a client may replace with a tool of its own of the same name (e.g. `["execute_code"]` for code run in the browser). Default none. */
  clientReplaceableTools?: readonly string[];
  /** What results of client tools must be, by tool name. Default: `execute_code` must be the kit's `ExecuteCodeResult`. A declared output schema applies to tools not listed. */
  resultContracts?: Record<string, ToolResultContract>;
  /** How long an approval request stays answerable. Default 10 minutes. */
  approvalTtlMs?: number;
  /** Model steps per run. Default 5. */
  maxSteps?: number;
  limits?: Partial<ChatLimits>;
  /** How long a request (a new message, answers, results) waits for a run of the same chat that is ending before 409. Default 5 000 ms. */
  busyWaitMs?: number;
  /**
   * Where runs' live streams are kept while they run, for pages that reload
   * or open the chat in another tab (`GET /api/chat/:id/stream`) and for
   * Stop (`POST /api/chats/:id/stop`). Default: this process only; give
   * `createRunStreams({ publisher, subscriber })` Redis clients when several
   * servers share the store.
   */
  streams?: RunStreams;
  /**
   * Chats not changed for this long are deleted, every owner's (checked at
   * most once an hour, as requests come). Default: kept until their owner
   * deletes them. Needs a store with `purge` (both of the kit's have it).
   */
  retentionMs?: number;
  /** A chat left running or pending this long is taken to be abandoned by a server that went away. Default 15 minutes. */
  staleAfterMs?: number;
  /** The text a client sees for a failed run. Default: the error's message. */
  onError?: (error: unknown) => string;
  log?: (event: ChatLogEvent) => void;
  now?: () => number;
}

/** The id a run of a chat is kept under: one per run, the same on every server reading the chat. */
const runIdOf = (chat: Pick<ChatRecord, "owner" | "id" | "version">) =>
  `run:${encodeURIComponent(chat.owner)}:${encodeURIComponent(chat.id)}:${chat.version}`;

/** A run's SSE stream as the AI SDK reads it. */
const streamResponse = (live: ReadableStream<string>) =>
  new Response(live.pipeThrough(new TextEncoderStream()), { headers: { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-store" } });

/** A path segment decoded, or null when it is not valid percent-encoding. */
function decodedId(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Another participant's chat does not exist, as far as the caller can tell. */
const noSuchChat = () => new ChatRequestError(404, "not_found", "There is no such chat.");

/**
 * The chat endpoints, as Web `Request` → `Response` functions: mount them in
 * a Next.js route handler, or in Node's `http` through `toNodeHandler`. The
 * store is the only truth: history, system prompt and results of
 * server-run calls come from it, never from a request. A client sends only
 * what is new — a user message, approval answers, results of its own tools —
 * and every status change is one conditional write, so the first of two
 * racing answers wins, across processes and servers.
 */
export function createChatEndpoints(options: ChatEndpointsOptions) {
  const store = options.store;
  const limits: ChatLimits = { ...DEFAULT_CHAT_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const ttlMs = options.approvalTtlMs ?? 10 * 60_000;
  const busyWaitMs = options.busyWaitMs ?? 5_000;
  const staleAfterMs = options.staleAfterMs ?? 15 * 60_000;
  const replaceable = options.clientReplaceableTools ?? [];
  const contracts: Record<string, ToolResultContract> = { execute_code: executeCodeResultContract(), ...options.resultContracts };
  const describeError = options.onError ?? ((error: unknown) => (error instanceof Error ? error.message : String(error)));
  const log = options.log ?? (() => undefined);
  const streams = options.streams ?? createRunStreams();
  const startedAt = now();
  // Signs approval requests so that an answer only approves the exact call that was shown; kept in the store so it outlives a restart.
  let approvalSecret: Promise<Uint8Array> | undefined;

  const serverTools = (chat: Pick<ChatRecord, "owner" | "id" | "options">) =>
    options.tools({ participantId: chat.owner, chatId: chat.id, options: chat.options });

  const contractFor = (chat: ChatRecord) => (toolName: string) => {
    const known = contracts[toolName];
    if (known) return known;
    const spec = chat.tools.find((candidate) => candidate.name === toolName);
    return spec?.outputSchema ? jsonSchemaContract(spec.outputSchema) : undefined;
  };

  /** The tools of one run: the server's, and the client's own (no execute: a call of one ends the loop). */
  function toolSet(chat: ChatRecord): ToolSet {
    const tools: ToolSet = { ...serverTools(chat) };
    for (const spec of chat.tools) tools[spec.name] = clientTool(spec);
    return tools;
  }

  function clientTool(spec: DynamicToolSpec): Tool {
    return tool({
      description: spec.description,
      inputSchema: jsonSchema<Record<string, unknown>>(spec.inputSchema as Parameters<typeof jsonSchema>[0]),
      ...(spec.name === "execute_code"
        ? { toModelOutput: ({ output }: { output: unknown }) => ({ type: "text" as const, value: describeModelOutput(output) }) }
        : {}),
    }) as Tool;
  }

  async function move(chat: ChatRecord, event: Parameters<typeof moveChat>[2], change: Parameters<typeof moveChat>[3] = {}) {
    const next = await moveChat(store, chat, event, change, now());
    if (next) log({ type: "chat_moved", chatId: chat.id, from: chat.status, to: next.status });
    return next;
  }

  async function load(caller: ChatCaller, id: string): Promise<ChatRecord> {
    const chat = isValidId(id) ? await store.get(caller.participantId, id) : null;
    if (!chat) throw noSuchChat();
    return abandonIfStale(chat);
  }

  /** A chat left running or pending by a server that went away becomes an error, so that it can go on. */
  async function abandonIfStale(chat: ChatRecord): Promise<ChatRecord> {
    if (!isMidRun(chat.status) || now() - chat.updatedAt < staleAfterMs) return chat;
    const moved = await move(chat, "abandon", { error: "The server stopped while answering." });
    return moved ?? (await store.get(chat.owner, chat.id)) ?? chat;
  }

  /** Refuses what would add to a participant's chats once they take their share of the store. */
  async function checkStorage(owner: string) {
    const used = (await store.usage?.(owner)) ?? 0;
    if (used < limits.maxStoredBytesPerParticipant) return;
    const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB` : `${Math.ceil(bytes / 1024)} KB`);
    throw new ChatRequestError(
      413,
      "storage_full",
      `Your chats take ${size(used)}, the most allowed is ${size(limits.maxStoredBytesPerParticipant)}: delete some to go on.`,
    );
  }

  // Chats past their retention go, at most once an hour; a failed sweep is tried again later.
  const retentionMs = options.retentionMs;
  let sweptAt = -Infinity;
  function sweepExpired() {
    if (retentionMs === undefined || !store.purge || now() - sweptAt < 3_600_000) return;
    sweptAt = now();
    store.purge(now() - retentionMs).catch(() => (sweptAt = -Infinity));
  }

  async function newChat(caller: ChatCaller, id: string, tools: DynamicToolSpec[], chatOptions: Record<string, unknown>) {
    // Storage is bounded per participant: chats are counted, their bytes too, and each is bounded below.
    const kept = await store.list(caller.participantId, { limit: limits.maxChatsPerParticipant });
    if (kept.length >= limits.maxChatsPerParticipant) {
      throw new ChatRequestError(429, "too_many_chats", `You keep ${kept.length} chats, the most allowed: delete one to start another.`);
    }
    await checkStorage(caller.participantId);
    const time = now();
    const chat: ChatRecord = {
      id,
      owner: caller.participantId,
      status: "idle",
      version: 0,
      messages: [],
      tools,
      options: chatOptions,
      approvals: {},
      error: null,
      createdAt: time,
      updatedAt: time,
    };
    if (!(await store.insert(chat))) throw new ChatRequestError(409, "exists", "A chat with this id exists already.");
    log({ type: "chat_created", chatId: id, participantId: caller.participantId, dynamicTools: tools.map((spec) => spec.name) });
    return chat;
  }

  const optionsFrom = (chat: ChatRecord, body: Record<string, unknown>) => options.readOptions?.(body) ?? chat.options;

  const runEnds = createRunEnds();

  /**
   * The chat once a run of it that is ending has been stored, waiting up to
   * `busyWaitMs`. A page sees a run's last calls and approval requests in
   * the stream a moment before the run's end is written, so an answer (or a
   * new message) sent at once must wait for that write, not be refused.
   */
  async function settled(start: ChatRecord): Promise<ChatRecord> {
    let chat = start;
    const deadline = performance.now() + busyWaitMs;
    while (isMidRun(chat.status) && performance.now() < deadline) {
      await runEnds.wait(chat, Math.min(100, deadline - performance.now()));
      chat = await abandonIfStale((await store.get(chat.owner, chat.id)) ?? chat);
    }
    return chat;
  }

  /**
   * Takes what a request adds to a chat that has `settled` and runs the loop
   * on it. Answers go only to a chat that awaits them.
   */
  async function continueChat(start: ChatRecord, submission: Submission, body: Record<string, unknown>) {
    const chat = start;
    if (submission.kind === "answers") {
      if (chat.status !== "requires_action") throw conflict(chat, `The chat is ${chat.status}: it is not waiting for answers.`);
      const awaited = {
        calls: pendingCalls(chat),
        approvals: pendingApprovals(chat),
        serverCallIds: new Set([...allCalls(chat)].filter(([, call]) => !call.dynamic).map(([id]) => id)),
      };
      const answers = checkAnswers(submission, awaited, contractFor(chat), limits);
      const { approvals, expired } = expireLate(chat, answers.approvals);
      const submitted = await move(chat, "submit", {
        messages: applyAnswers(chat.messages, answers.results, approvals),
        approvals: {},
        options: optionsFrom(chat, body),
      });
      // Another request answered first.
      if (!submitted) throw conflict((await store.get(chat.owner, chat.id)) ?? chat, "These calls were answered already.");
      const running = await move(submitted, "resume");
      if (!running) throw conflict(submitted, "The chat moved on before its answers were taken.");
      return run(running, expired);
    }

    if (!canMove(chat.status, "start")) throw conflict(chat, `The chat is ${chat.status}; send the message again when it is done.`);
    let messages: UIMessage[];
    if (submission.kind === "message" && chat.messages.filter((message) => message.role === "user").length >= limits.maxUserMessagesPerChat) {
      throw new ChatRequestError(413, "chat_full", `This chat holds ${limits.maxUserMessagesPerChat} messages, the most allowed: start a new chat to go on.`);
    }
    await checkStorage(chat.owner);
    if (submission.kind === "message") {
      messages = [...(chat.status === "requires_action" ? cancelAwaited(chat) : chat.messages), submission.message];
    } else {
      const lastUser = chat.messages.findLastIndex((message) => message.role === "user");
      if (lastUser < 0) throw new ChatRequestError(400, "invalid_request", "There is no user message to answer again.");
      if (chat.status === "requires_action") throw conflict(chat, "The chat awaits answers to its calls.");
      messages = chat.messages.slice(0, lastUser + 1);
    }
    const running = await move(chat, "start", { messages, approvals: {}, error: null, options: optionsFrom(chat, body) });
    if (!running) throw conflict((await store.get(chat.owner, chat.id)) ?? chat, "Another request changed the chat first.");
    // A chat is listed under its first message until its owner names it.
    if (submission.kind === "message" && !chat.messages.some((message) => message.role === "user")) {
      await store.describe(chat.owner, chat.id, { title: titleOf(submission.message), ifUntitled: true });
    }
    return run(running, new Set());
  }

  /** Answers given too late become denials with the reason "expired": the code never runs. */
  function expireLate(chat: ChatRecord, answers: ApprovalAnswer[]): { approvals: ApprovalAnswer[]; expired: Set<string> } {
    const expired = new Set<string>();
    const requests = new Map(pendingApprovals(chat).map((request) => [request.approvalId, request]));
    const approvals = answers.map((answer) => {
      const at = chat.approvals[answer.approvalId];
      if (!answer.approved || (at !== undefined && now() - at <= ttlMs)) return answer;
      expired.add(requests.get(answer.approvalId)!.toolCallId);
      return { approvalId: answer.approvalId, approved: false, reason: "expired" };
    });
    return { approvals, expired };
  }

  /**
   * One run of the model loop for a chat the caller has moved to `running`.
   * It belongs to the chat, not to the request: it goes on when the client
   * goes away, until it ends or someone stops it. When it ends, the chat is
   * stored with what it awaits, if anything.
   */
  async function run(chat: ChatRecord, expiredCallIds: ReadonlySet<string>) {
    const stopping = new AbortController();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let stream: ReadableStream<UIMessageChunk>;
    let finishChunk: UIMessageChunk | undefined;
    try {
      approvalSecret ??= store.secret("approval");
      const tools = toolSet(chat);
      const result = streamText({
        model: options.model,
        instructions: options.instructions,
        messages: await convertToModelMessages(chat.messages, { tools, ignoreIncompleteToolCalls: true }),
        tools,
        stopWhen: stepCountIs(options.maxSteps ?? 5),
        // Stopped through `POST /api/chats/:id/stop`; the chat keeps what was done.
        abortSignal: stopping.signal,
        experimental_toolApprovalSecret: await approvalSecret,
        // A failure is stored with the chat (and logged as chat_failed), not printed.
        onError: () => undefined,
      });
      stream = result
        .toUIMessageStream({
          originalMessages: chat.messages,
          generateMessageId: () => `msg_${crypto.randomUUID()}`,
          onError: describeError,
          onEnd: async ({ messages, outcome }) => {
            try {
              await finish(chat, messages, outcome.status === "failed" ? describeError(outcome.error) : null);
            } finally {
              settle();
            }
          },
        })
        .pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, controller) {
              // The stream's denial carries no reason: tell the card this one expired.
              if (chunk.type === "tool-output-denied" && expiredCallIds.has(chunk.toolCallId)) {
                controller.enqueue({ type: "tool-output-available", toolCallId: chunk.toolCallId, output: expiredApprovalResult });
                return;
              }
              // The run's end is told once it is stored (onEnd runs before this stream flushes).
              if (chunk.type === "finish") {
                finishChunk = chunk;
                return;
              }
              controller.enqueue(chunk);
            },
            flush(controller) {
              if (finishChunk) controller.enqueue(finishChunk);
            },
          }),
        );
    } catch (error) {
      await finish(chat, chat.messages, describeError(error));
      throw error;
    }
    const sse = stream.pipeThrough(new JsonToSseTransformStream());
    let live: ReadableStream<string>;
    try {
      live = await streams.keep(runIdOf(chat), sse, () => stopping.abort());
    } catch (error) {
      // Nowhere to keep it (the pub/sub is down): the run stops, and its end is stored.
      stopping.abort();
      void sse.pipeTo(new WritableStream()).catch(() => undefined);
      throw error;
    }
    return { live, settled, chatId: chat.id, owner: chat.owner };
  }

  /** Stores the end of a run: awaiting the client, done, or failed. */
  async function finish(chat: ChatRecord, messages: UIMessage[], failure: string | null) {
    const ended = { ...chat, messages };
    const awaited = { calls: pendingCalls(ended), approvals: pendingApprovals(ended) };
    let moved: ChatRecord | null;
    if (failure !== null) {
      moved = await move(chat, "fail", { messages, error: failure });
      log({ type: "chat_failed", chatId: chat.id, message: failure });
    } else if (awaited.calls.length || awaited.approvals.length) {
      const time = now();
      moved = await move(chat, "wait", {
        messages,
        approvals: Object.fromEntries(awaited.approvals.map((request) => [request.approvalId, chat.approvals[request.approvalId] ?? time])),
      });
    } else {
      moved = await move(chat, "finish", { messages });
    }
    if (!moved) log({ type: "chat_failed", chatId: chat.id, message: "The chat was changed elsewhere while it ran; this run's end was not stored." });
    runEnds.notify(chat);
  }

  /** The run's UI message stream; or, for `Accept: application/json`, the chat once the run has ended. */
  async function respond(request: Request, caller: ChatCaller, ran: Awaited<ReturnType<typeof run>>): Promise<Response> {
    const accept = request.headers.get("accept") ?? "";
    if (accept.includes("application/json") && !accept.includes("text/event-stream")) {
      const reader = ran.live.getReader();
      while (!(await reader.read()).done);
      await ran.settled;
      return json(200, chatView((await store.get(caller.participantId, ran.chatId))!));
    }
    return streamResponse(ran.live);
  }

  /**
   * The live stream of the chat's run, from its first chunk (null when none
   * runs). A run that has just been stored as started may take a moment to
   * be kept. A run no server keeps is over: its server went away, and the
   * chat is marked so at once rather than after `staleAfterMs`.
   */
  async function followRun(caller: ChatCaller, chatId: string): Promise<ReadableStream<string> | null> {
    const deadline = performance.now() + 2_000;
    for (;;) {
      const chat = await load(caller, chatId);
      if (!isMidRun(chat.status)) return null;
      const live = chat.status === "running" ? await streams.follow(runIdOf(chat)) : null;
      if (live) return live;
      if (performance.now() >= deadline) {
        if (chat.status === "running" && isOrphan(chat)) await move(chat, "abandon", { error: "The server stopped while answering." });
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Whether a running chat that no server keeps a stream for is surely
   * orphaned: with shared streams, any server would have answered; with this
   * process's own, only a run begun before the process is surely not its.
   */
  function isOrphan(chat: ChatRecord): boolean {
    return streams.shared ? now() - chat.updatedAt > 10_000 : chat.updatedAt < startedAt;
  }

  async function guarded(chatId: string | null, work: () => Promise<Response>): Promise<Response> {
    sweepExpired();
    try {
      return await work();
    } catch (error) {
      if (error instanceof ChatStateConflict) {
        return refusal(new ChatRequestError(409, "conflict", error.message, { status: error.status }));
      }
      if (!(error instanceof ChatRequestError)) throw error;
      log({ type: "chat_refused", chatId, status: error.status, code: error.code, message: error.message });
      return refusal(error);
    }
  }

  const endpoints = {
    /**
     * `GET /api/chat/:id/stream` (where the AI SDK's `resume` looks) or
     * `GET /api/chats/:id/stream`: the run in progress as a UI message
     * stream from its start, following it live; 204 when nothing runs.
     */
    followStream: (_request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const live = await followRun(caller, chatId);
        return live ? streamResponse(live) : new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
      }),

    /** `POST /api/chats/:id/stop` → 202 when the chat's run was asked to stop (it stores what it did), 204 when nothing runs. */
    stopRun: (_request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const chat = await load(caller, chatId);
        if (chat.status !== "running") return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
        await streams.stop(runIdOf(chat));
        return json(202, { stopping: true });
      }),

    /** `POST /api/chats` `{ tools?: [{ name, description, input_schema, output_schema? }], id? }` → 201 with the chat. */
    createChat: (request: Request, caller: ChatCaller) =>
      guarded(null, async () => {
        const body = await readBody(request, limits.maxBodyBytes);
        if (body.id !== undefined && !isValidId(body.id)) throw new ChatRequestError(400, "invalid_request", "id must be 1–128 letters, digits, _ or -.");
        const id = (body.id as string | undefined) ?? `chat_${crypto.randomUUID()}`;
        const chatOptions = options.readOptions?.(body) ?? {};
        const names = Object.keys(serverTools({ owner: caller.participantId, id, options: chatOptions }));
        const tools = parseDynamicTools(body.tools, { serverToolNames: names, replaceable, limits });
        return json(201, chatView(await newChat(caller, id, tools, chatOptions)));
      }),

    /** `GET /api/chats?limit=N` → `{ chats: [{ id, title, status, archived, created_at, updated_at }] }`: the caller's chats, the most recently changed first (at most 500, default 100). */
    listChats: (request: Request, caller: ChatCaller) =>
      guarded(null, async () => {
        const asked = Number(new URL(request.url).searchParams.get("limit") ?? "100");
        const limit = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), 500) : 100;
        const chats = await store.list(caller.participantId, { limit });
        return json(200, { chats: chats.map(summaryView) });
      }),

    /** `PATCH /api/chats/:id` `{ title?: string | null, archived?: boolean }` → 204. A rename never conflicts with a run. */
    updateChat: (request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const body = await readBody(request, limits.maxBodyBytes);
        const change = readDescription(body);
        if (!isValidId(chatId) || !(await store.describe(caller.participantId, chatId, change))) {
          throw noSuchChat();
        }
        return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
      }),

    /** `DELETE /api/chats/:id` → 204: the chat is gone, for good. */
    deleteChat: (_request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        if (!isValidId(chatId) || !(await store.remove(caller.participantId, chatId))) {
          throw noSuchChat();
        }
        return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
      }),

    /** `GET /api/chats/:id` → the chat: status, messages, what it awaits. */
    getChat: (_request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => json(200, chatView(await load(caller, chatId)))),

    /** `POST /api/chats/:id/messages` `{ text }` → the answer as a UI message stream (or the chat, for `Accept: application/json`). */
    postMessage: (request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const body = await readBody(request, limits.maxBodyBytes);
        const chat = await settled(await load(caller, chatId));
        const text = userText([{ type: "text", text: body.text }], limits);
        const message: UIMessage = { id: `msg_${crypto.randomUUID()}`, role: "user", parts: [{ type: "text", text }] };
        return respond(request, caller, await continueChat(chat, { kind: "message", message }, body));
      }),

    /**
     * `POST /api/chats/:id/tool-results` `{ results: [{ tool_call_id, output, is_error? }], approvals?: [{ approval_id, approved, reason? }] }`:
     * 409 when the chat awaits nothing; 400 unless the ids are exactly the
     * awaited calls of the client's tools and every output fits its tool's
     * contract. The first valid answer wins; the continuation follows as a
     * UI message stream (or the chat, for `Accept: application/json`).
     */
    submitToolResults: (request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const body = await readBody(request, limits.maxBodyBytes);
        const chat = await settled(await load(caller, chatId));
        if (chat.status !== "requires_action") throw conflict(chat, `The chat is ${chat.status}: it is not waiting for tool results.`);
        if (!Array.isArray(body.results)) throw new ChatRequestError(400, "invalid_request", "results must be an array.");
        if (body.approvals !== undefined && !Array.isArray(body.approvals)) throw new ChatRequestError(400, "invalid_request", "approvals must be an array.");
        const submission: Submission = { kind: "answers", results: body.results as RawResult[], approvals: (body.approvals ?? []) as RawApproval[] };
        return respond(request, caller, await continueChat(chat, submission, {}));
      }),

    /**
     * `POST /api/chat` with the AI SDK's own body (`{ id, messages, trigger,
     * messageId }`), so `useChat` and assistant-ui work unchanged. The chat
     * is looked up by id for this caller (and made, with the server's tools
     * only, on a first message). Only the new part is read: a new last user
     * message, approval answers, results of awaited client calls.
     */
    chat: (request: Request, caller: ChatCaller) =>
      guarded(null, async () => {
        const body = await readBody(request, limits.maxBodyBytes);
        if (!isValidId(body.id)) throw new ChatRequestError(400, "invalid_request", "The request has no valid chat id.");
        let chat = await store.get(caller.participantId, body.id);
        if (!chat) {
          chat = await newChat(caller, body.id, [], options.readOptions?.(body) ?? {}).catch(async (error: unknown) => {
            const raced = await store.get(caller.participantId, body.id as string);
            if (raced) return raced;
            throw error;
          });
        }
        chat = await settled(await abandonIfStale(chat));
        return respond(request, caller, await continueChat(chat, readAISDKSubmission(chat, body, limits), body));
      }),

    /**
     * Routes a request under `basePath` (default `/api`) to the endpoint for
     * it; null for a path that is not the chat's, so the host can route it.
     */
    async handle(request: Request, caller: ChatCaller, { basePath = "/api" }: { basePath?: string } = {}): Promise<Response | null> {
      const path = new URL(request.url).pathname;
      const method = request.method;
      /** The endpoint for the request's method among those of the path, or 405 naming them. */
      const by = (routes: Record<string, () => Promise<Response>>) =>
        routes[method]?.() ??
        Promise.resolve(json(405, { error: "method_not_allowed", message: `Use ${Object.keys(routes).join(" or ")}.` }, { allow: Object.keys(routes).join(", ") }));
      const only = (allowed: string, work: () => Promise<Response>) => by({ [allowed]: work });
      if (path === `${basePath}/chat`) return only("POST", () => endpoints.chat(request, caller));
      const resume = path.startsWith(`${basePath}/chat/`) ? path.slice(`${basePath}/chat/`.length).split("/") : null;
      if (resume) {
        const chatId = resume.length === 2 && resume[1] === "stream" ? decodedId(resume[0]!) : null;
        if (chatId === null) return resume.length === 2 && resume[1] === "stream" ? refusal(noSuchChat()) : null;
        return only("GET", () => endpoints.followStream(request, caller, chatId));
      }
      if (path === `${basePath}/chats`) {
        return by({ GET: () => endpoints.listChats(request, caller), POST: () => endpoints.createChat(request, caller) });
      }
      if (!path.startsWith(`${basePath}/chats/`)) return null;
      const [id, action, ...rest] = path.slice(`${basePath}/chats/`.length).split("/");
      if (!id || rest.length) return null;
      const chatId = decodedId(id);
      if (chatId === null) return refusal(noSuchChat());
      if (action === undefined) {
        return by({
          GET: () => endpoints.getChat(request, caller, chatId),
          PATCH: () => endpoints.updateChat(request, caller, chatId),
          DELETE: () => endpoints.deleteChat(request, caller, chatId),
        });
      }
      if (action === "messages") return only("POST", () => endpoints.postMessage(request, caller, chatId));
      if (action === "tool-results") return only("POST", () => endpoints.submitToolResults(request, caller, chatId));
      if (action === "stream") return only("GET", () => endpoints.followStream(request, caller, chatId));
      if (action === "stop") return only("POST", () => endpoints.stopRun(request, caller, chatId));
      return null;
    },
  };
  return endpoints;
}

export type ChatEndpoints = ReturnType<typeof createChatEndpoints>;
export type { AcceptedResult };
export { chatView, type ChatView } from "./chat-view.js";
export type { ChatSummaryView } from "./chat-list.js";
