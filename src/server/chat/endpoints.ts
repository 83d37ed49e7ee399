// Over 300 lines: one closure over the store and the chat's lifecycle, with
// its request handlers, which share every step of it (the run, the storage
// guard, the routes and the stores are modules of their own).

import type { ToolSet, UIMessage } from "ai";
import { conflict, readAISDKSubmission, type Submission } from "./ai-sdk-request.js";
import {
  allCalls,
  applyAnswers,
  cancelAwaited,
  pendingApprovals,
  pendingCalls,
  expireLateApprovals,
  type AcceptedResult,
} from "./calls.js";
import { readListing, summaryView, titleOf } from "./chat-list.js";
import { chatView } from "./chat-view.js";
import { clientTools } from "./client-tools.js";
import { acceptAttachments } from "./attachments.js";
import { DEFAULT_BODY_RATE } from "../http/body-budget.js";
import { chatFiles } from "../tool/chat-files.js";
import { HttpRefusal, jsonResponse as json, refusalResponse as refusal, takeTurn } from "../http/http.js";
import { createMessageBudget, readBody } from "./http.js";
import { createModelRuns, HEARTBEAT_MS, runIdOf, streamResponse, type ModelRun } from "./model-run.js";
import type { ChatCaller, ChatEndpointsOptions } from "./options.js";
import { matchChatRoute, type ChatMethod } from "./routes.js";
import { createRunEnds } from "./run-ends.js";
import { createRunStreams, TooManyFollowers } from "./run-streams.js";
import { canMove, ChatStateConflict, isMidRun } from "./status.js";
import { createStorageGuard } from "./storage-guard.js";
import { moveChat, type ChatHead, type ChatRecord, type DynamicToolSpec } from "./store.js";
import {
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
import { errorMessage } from "../../contract/error-message.js";

/** Requests of one participant that may wait at once for a run's end; a page sends one at a time. */
const MAX_WAITING_PER_PARTICIPANT = 2;

/** Another participant's chat does not exist, as far as the caller can tell. */
const noSuchChat = () => new HttpRefusal(404, "not_found", "There is no such chat.");

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
  const contracts: Record<string, ToolResultContract> = {
    execute_code: executeCodeResultContract(),
    ...options.resultContracts,
  };
  const describeError = options.onError ?? errorMessage;
  const log = options.log ?? (() => undefined);
  const streams = options.streams ?? createRunStreams();
  const bodies = createMessageBudget({
    maxBytesInFlight: 128 * 1024 * 1024,
    maxParticipantBytesInFlight: 2 * limits.maxBodyBytes,
    maxClientBytesInFlight: 16 * limits.maxBodyBytes,
    ...DEFAULT_BODY_RATE,
    ...options.bodyBudget,
  });
  /** The request's JSON body, its bytes held against the shared budget while they arrive. */
  const bodyOf = (request: Request, caller: ChatCaller) =>
    readBody(
      request,
      limits.maxBodyBytes,
      (body) => bodies.open(caller.participantId, body, caller.client),
      caller.participantId,
    );

  const serverTools = (chat: Pick<ChatRecord, "owner" | "id" | "options" | "messages">, client?: string) =>
    options.tools({
      participantId: chat.owner,
      chatId: chat.id,
      ...(client ? { client } : {}),
      options: chat.options,
      files: chatFiles(chat.messages),
    });

  const contractFor = (chat: ChatRecord) => (toolName: string) => {
    const known = contracts[toolName];
    if (known) return known;
    const spec = chat.tools.find((candidate) => candidate.name === toolName);
    return spec?.outputSchema ? jsonSchemaContract(spec.outputSchema) : undefined;
  };

  /** The tools of one run: the server's, and the client's own (no execute: a call of one ends the loop). */
  const toolSet = (chat: ChatRecord, client?: string): ToolSet => ({
    ...serverTools(chat, client),
    ...clientTools(chat.tools),
  });

  async function move(
    chat: ChatRecord,
    event: Parameters<typeof moveChat>[2],
    change: Parameters<typeof moveChat>[3] = {},
  ) {
    const next = await moveChat(store, chat, event, change, now());
    if (next) log({ type: "chat_moved", chatId: chat.id, from: chat.status, to: next.status });
    return next;
  }

  /**
   * A chat's status and version, without its messages where the store can
   * tell (a large chat costs its whole parse, and following or stopping a
   * run needs none of it); read whole where it may have to be marked ended.
   */
  async function loadHead(caller: ChatCaller, id: string): Promise<ChatHead> {
    if (!store.head) return load(caller, id);
    const head = isValidId(id) ? await store.head(caller.participantId, id) : null;
    if (!head) throw noSuchChat();
    const mayBeOver = isMidRun(head.status) && (now() - head.updatedAt >= staleAfterMs || isOrphan(head));
    return mayBeOver ? load(caller, id) : head;
  }

  async function load(caller: ChatCaller, id: string): Promise<ChatRecord> {
    const chat = isValidId(id) ? await store.get(caller.participantId, id) : null;
    if (!chat) throw noSuchChat();
    return abandonIfOrphaned(await abandonIfStale(chat));
  }

  /**
   * A running chat whose run no server keeps (its server stopped or
   * restarted) is marked so at once, rather than after `staleAfterMs`.
   */
  async function abandonIfOrphaned(chat: ChatRecord): Promise<ChatRecord> {
    if (chat.status !== "running" || !isOrphan(chat) || (await streams.isLive(runIdOf(chat)))) return chat;
    const moved = await move(chat, "abandon", { error: "The server stopped while answering." });
    return moved ?? (await store.get(chat.owner, chat.id)) ?? chat;
  }

  /** A chat left running or pending by a server that went away becomes an error, so that it can go on. */
  async function abandonIfStale(chat: ChatRecord): Promise<ChatRecord> {
    if (!isMidRun(chat.status) || now() - chat.updatedAt < staleAfterMs) return chat;
    const moved = await move(chat, "abandon", { error: "The server stopped while answering." });
    return moved ?? (await store.get(chat.owner, chat.id)) ?? chat;
  }

  const storage = createStorageGuard({ store, limits, retentionMs: options.retentionMs, now });

  async function newChat(
    caller: ChatCaller,
    id: string,
    tools: DynamicToolSpec[],
    chatOptions: Record<string, unknown>,
  ) {
    // Storage is bounded per participant: chats are counted, their bytes too, and each is bounded below.
    const kept = await store.list(caller.participantId, { limit: limits.maxChatsPerParticipant });
    if (kept.length >= limits.maxChatsPerParticipant) {
      throw new HttpRefusal(
        429,
        "too_many_chats",
        `You keep ${kept.length} chats, the most allowed: delete one to start another.`,
      );
    }
    (await storage.admit(caller.participantId))();
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
    if (!(await store.insert(chat))) throw new HttpRefusal(409, "exists", "A chat with this id exists already.");
    log({
      type: "chat_created",
      chatId: id,
      participantId: caller.participantId,
      dynamicTools: tools.map((spec) => spec.name),
    });
    return chat;
  }

  const optionsFrom = (chat: ChatRecord, body: Record<string, unknown>) => options.readOptions?.(body) ?? chat.options;

  const runEnds = createRunEnds();
  const runs = createModelRuns({
    model: options.model,
    instructions: options.instructions,
    maxSteps: options.maxSteps ?? 5,
    store,
    streams,
    toolSet,
    move,
    describeError,
    log,
    now,
    onEnd: (chat) => runEnds.notify(chat),
    spent: options.modelBudget?.spent,
  });

  /**
   * The chat once a run of it that is ending has been stored, waiting up to
   * `busyWaitMs`. A page sees a run's last calls and approval requests in
   * the stream a moment before the run's end is written, so an answer (or a
   * new message) sent at once must wait for that write, not be refused. The
   * wait is in memory and the store is read once, when it ends; a
   * participant has at most `MAX_WAITING_PER_PARTICIPANT` requests waiting,
   * and any more are answered 409 at once.
   */
  async function settled(start: ChatRecord): Promise<ChatRecord> {
    if (!isMidRun(start.status)) return start;
    refusePastWaiting(start);
    await runEnds.wait(start, busyWaitMs);
    return abandonIfStale((await store.get(start.owner, start.id)) ?? start);
  }

  /** A request on a running chat of a participant who has as many waiting as they may: 409, before any work. */
  function refusePastWaiting(chat: Pick<ChatRecord, "owner" | "status">) {
    if (runEnds.waiting(chat.owner) < MAX_WAITING_PER_PARTICIPANT) return;
    throw conflict(chat, "The chat is still answering: send this again when it is done.");
  }

  /** The same, for a chat this process is running, before its stored record is read and parsed. */
  function refuseWhileRunningHere(caller: ChatCaller, chatId: unknown) {
    if (typeof chatId === "string" && runs.isRunning(caller.participantId, chatId))
      refusePastWaiting({ owner: caller.participantId, status: "running" });
  }

  /**
   * Takes what a request adds to a chat that has `settled` and runs the loop
   * on it. Answers go only to a chat that awaits them.
   */
  async function continueChat(
    start: ChatRecord,
    submitted: Submission,
    body: Record<string, unknown>,
    caller: ChatCaller,
  ) {
    let submission = submitted;
    const chat = start;
    // Asked before anything is stored: a refused message is not kept, and the student may send it again later.
    const refused = await options.modelBudget?.admit?.(caller.participantId);
    if (refused) throw new HttpRefusal(429, "over_budget", refused);
    if (submission.kind === "answers") {
      if (chat.status !== "requires_action")
        throw conflict(chat, `The chat is ${chat.status}: it is not waiting for answers.`);
      const awaited = {
        calls: pendingCalls(chat),
        approvals: pendingApprovals(chat),
        serverCallIds: new Set([...allCalls(chat)].filter(([, call]) => !call.dynamic).map(([id]) => id)),
      };
      const answers = checkAnswers(submission, awaited, contractFor(chat), limits);
      const { approvals, expired } = expireLateApprovals(chat, answers.approvals, { ttlMs, now: now() });
      const submitted = await move(chat, "submit", {
        messages: applyAnswers(chat.messages, answers.results, approvals),
        approvals: {},
        options: optionsFrom(chat, body),
      });
      // Another request answered first.
      if (!submitted)
        throw conflict((await store.get(chat.owner, chat.id)) ?? chat, "These calls were answered already.");
      const running = await move(submitted, "resume");
      if (!running) throw conflict(submitted, "The chat moved on before its answers were taken.");
      return runs.start(running, expired, caller.client);
    }

    if (!canMove(chat.status, "start"))
      throw conflict(chat, `The chat is ${chat.status}; send the message again when it is done.`);
    if (
      submission.kind === "message" &&
      chat.messages.filter((message) => message.role === "user").length >= limits.maxUserMessagesPerChat
    ) {
      throw new HttpRefusal(
        413,
        "chat_full",
        `This chat holds ${limits.maxUserMessagesPerChat} messages, the most allowed: start a new chat to go on.`,
      );
    }
    if (submission.kind === "message") {
      submission = {
        kind: "message",
        message: await acceptAttachments(chat, submission.message, { files: options.attachments, limits }),
      };
    }
    // What the run is expected to store: the message, and the program in it again as a call's input, output and the reply.
    const release = await storage.admit(
      chat.owner,
      submission.kind === "message" ? 4 * JSON.stringify(submission.message).length : 0,
    );
    try {
      const ran = await startRun(chat, submission, body, caller);
      void ran.settled.finally(release);
      return ran;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Starts the loop on a chat for a new message or a regenerate. */
  async function startRun(
    chat: ChatRecord,
    submission: Exclude<Submission, { kind: "answers" }>,
    body: Record<string, unknown>,
    caller: ChatCaller,
  ) {
    let messages: UIMessage[];
    if (submission.kind === "message") {
      messages = [...(chat.status === "requires_action" ? cancelAwaited(chat) : chat.messages), submission.message];
    } else {
      const lastUser = chat.messages.findLastIndex((message) => message.role === "user");
      if (lastUser < 0) throw new HttpRefusal(400, "invalid_request", "There is no user message to answer again.");
      if (chat.status === "requires_action") throw conflict(chat, "The chat awaits answers to its calls.");
      messages = chat.messages.slice(0, lastUser + 1);
    }
    const running = await move(chat, "start", {
      messages,
      approvals: {},
      error: null,
      options: optionsFrom(chat, body),
    });
    if (!running)
      throw conflict((await store.get(chat.owner, chat.id)) ?? chat, "Another request changed the chat first.");
    // A chat is listed under its first message until its owner names it.
    if (submission.kind === "message" && !chat.messages.some((message) => message.role === "user")) {
      await store.setListing(chat.owner, chat.id, { title: titleOf(submission.message), ifUntitled: true });
    }
    return runs.start(running, new Set(), caller.client);
  }

  /** The run's UI message stream; or, for `Accept: application/json`, the chat once the run has ended. */
  async function respond(request: Request, caller: ChatCaller, ran: ModelRun): Promise<Response> {
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
   * be kept.
   */
  async function followRun(caller: ChatCaller, chatId: string): Promise<ReadableStream<string> | null> {
    const deadline = performance.now() + 2_000;
    let chat = await loadHead(caller, chatId);
    // Answers taken, the run about to start: a moment, read again.
    while (chat.status === "pending" && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      chat = await loadHead(caller, chatId);
    }
    if (chat.status !== "running") return null;
    // Then the store is not read again: what is waited for is the run being kept, which the streams tell.
    for (;;) {
      const live = await streams.follow(runIdOf(chat));
      if (live || performance.now() >= deadline) return live;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Whether a running chat has missed its heartbeats: its server has not
   * marked it for four beats, so it went away. Without heartbeats in the
   * store, only `staleAfterMs` says so.
   */
  function isOrphan(chat: Pick<ChatRecord, "updatedAt">): boolean {
    return store.touch !== undefined && now() - chat.updatedAt > 4 * HEARTBEAT_MS;
  }

  async function guarded(chatId: string | null, work: () => Promise<Response>): Promise<Response> {
    storage.sweep();
    try {
      return await work();
    } catch (error) {
      if (error instanceof ChatStateConflict) {
        return refusal(new HttpRefusal(409, "conflict", error.message, { status: error.status }));
      }
      if (!(error instanceof HttpRefusal)) throw error;
      // A refused id is the client's own text: logged no longer than a valid one.
      log({
        type: "chat_refused",
        chatId: chatId?.slice(0, 128) ?? null,
        status: error.status,
        code: error.code,
        message: error.message,
      });
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
        const live = await followRun(caller, chatId).catch((error: unknown) => {
          if (error instanceof TooManyFollowers) throw new HttpRefusal(429, "too_many_followers", error.message);
          throw error;
        });
        return live
          ? streamResponse(live)
          : new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
      }),

    /** `POST /api/chats/:id/stop` → 202 when the chat's run was asked to stop (it stores what it did), 204 when nothing runs. */
    stopRun: (_request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const chat = await loadHead(caller, chatId);
        if (chat.status !== "running")
          return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
        await streams.stop(runIdOf(chat));
        return json(202, { stopping: true });
      }),

    /** `POST /api/chats` `{ tools?: [{ name, description, input_schema, output_schema? }], id? }` → 201 with the chat. */
    createChat: (request: Request, caller: ChatCaller) =>
      guarded(null, async () => {
        const body = await bodyOf(request, caller);
        if (body.id !== undefined && !isValidId(body.id))
          throw new HttpRefusal(400, "invalid_request", "id must be 1–128 letters, digits, _ or -.");
        const id = (body.id as string | undefined) ?? `chat_${crypto.randomUUID()}`;
        const chatOptions = options.readOptions?.(body) ?? {};
        const names = Object.keys(serverTools({ owner: caller.participantId, id, options: chatOptions, messages: [] }));
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
        const body = await bodyOf(request, caller);
        const change = readListing(body);
        if (!isValidId(chatId) || !(await store.setListing(caller.participantId, chatId, change))) {
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
      guarded(chatId, async () => {
        // A large chat takes tens of milliseconds to read and write out: many reads at once take turns, student by student.
        const endTurn = await takeTurn(caller.participantId);
        try {
          return json(200, chatView(await load(caller, chatId)));
        } finally {
          endTurn();
        }
      }),

    /** `POST /api/chats/:id/messages` `{ text }` → the answer as a UI message stream (or the chat, for `Accept: application/json`). */
    postMessage: (request: Request, caller: ChatCaller, chatId: string) =>
      guarded(chatId, async () => {
        const body = await bodyOf(request, caller);
        refuseWhileRunningHere(caller, chatId);
        const chat = await settled(await load(caller, chatId));
        const text = userText([{ type: "text", text: body.text }], limits);
        const message: UIMessage = { id: `msg_${crypto.randomUUID()}`, role: "user", parts: [{ type: "text", text }] };
        return respond(request, caller, await continueChat(chat, { kind: "message", message }, body, caller));
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
        const body = await bodyOf(request, caller);
        refuseWhileRunningHere(caller, chatId);
        const chat = await settled(await load(caller, chatId));
        if (chat.status !== "requires_action")
          throw conflict(chat, `The chat is ${chat.status}: it is not waiting for tool results.`);
        if (!Array.isArray(body.results)) throw new HttpRefusal(400, "invalid_request", "results must be an array.");
        if (body.approvals !== undefined && !Array.isArray(body.approvals))
          throw new HttpRefusal(400, "invalid_request", "approvals must be an array.");
        const submission: Submission = {
          kind: "answers",
          results: body.results as RawResult[],
          approvals: (body.approvals ?? []) as RawApproval[],
        };
        return respond(request, caller, await continueChat(chat, submission, {}, caller));
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
        const body = await bodyOf(request, caller);
        if (!isValidId(body.id)) throw new HttpRefusal(400, "invalid_request", "The request has no valid chat id.");
        refuseWhileRunningHere(caller, body.id);
        let chat = await store.get(caller.participantId, body.id);
        if (!chat) {
          chat = await newChat(caller, body.id, [], options.readOptions?.(body) ?? {}).catch(async (error: unknown) => {
            const raced = await store.get(caller.participantId, body.id as string);
            if (raced) return raced;
            throw error;
          });
        }
        chat = await settled(await abandonIfOrphaned(await abandonIfStale(chat)));
        return respond(
          request,
          caller,
          await continueChat(chat, readAISDKSubmission(chat, body, limits), body, caller),
        );
      }),

    /**
     * Stops the runs this process keeps and stores how each ended (at most
     * 5 s), for a server that shuts down: pages then see the runs stopped,
     * not running. Call it before closing the store.
     */
    close: () => runs.stopAll(5_000),

    /**
     * Routes a request under `basePath` (default `/api`) to the endpoint for
     * it; null for a path that is not the chat's, so the host can route it.
     */
    async handle(
      request: Request,
      caller: ChatCaller,
      { basePath = "/api" }: { basePath?: string } = {},
    ): Promise<Response | null> {
      const route = matchChatRoute(new URL(request.url).pathname, basePath);
      if (!route) return null;
      if (route.chatId === undefined) return refusal(noSuchChat());
      const name = route.methods[request.method as ChatMethod];
      if (!name) {
        const allowed = Object.keys(route.methods);
        return json(
          405,
          { error: "method_not_allowed", message: `Use ${allowed.join(" or ")}.` },
          { allow: allowed.join(", ") },
        );
      }
      const endpoint: (request: Request, caller: ChatCaller, chatId: string) => Promise<Response> = endpoints[name];
      return endpoint(request, caller, route.chatId ?? "");
    },
  };
  return endpoints;
}

export type ChatEndpoints = ReturnType<typeof createChatEndpoints>;
export type { AcceptedResult };
export { chatView, type ChatView } from "./chat-view.js";
export type { ChatSummaryView } from "./chat-list.js";
