import type { LanguageModel, LanguageModelUsage, ToolSet } from "ai";
import type { BodyBudgetOptions } from "../http/body-budget.js";
import type { ChatFile } from "../tool/chat-files.js";
import type { SandboxFiles } from "../files/sandbox-files.js";
import type { RunStreams } from "./run-streams.js";
import type { ChatStatus } from "./status.js";
import type { ChatStore } from "./store.js";
import type { ChatLimits, ToolResultContract } from "./validate.js";

/** Who is asking: decided by the host (its session, its sign-in), never read from the request body. */
export interface ChatCaller {
  participantId: string;
  /**
   * Where the request came from (an address, or anything that outlasts one
   * person's many identities), where the host knows it: handed to the tools
   * as `client`, for caps that many cookies of one person cannot pass.
   */
  client?: string;
}

export interface ServerToolsContext {
  participantId: string;
  chatId: string;
  /** The caller's `client`, where the host told it: `createExecuteCodeTool({ clientId })`. */
  client?: string;
  /** The settings the chat keeps (see `readOptions`). */
  options: Record<string, unknown>;
  /** The chat's files, for `createExecuteCodeTool({ files })`: what the student attached and what runs wrote. */
  files: ChatFile[];
}

export type ChatLogEvent =
  | { type: "chat_created"; chatId: string; participantId: string; dynamicTools: string[] }
  | { type: "chat_moved"; chatId: string; from: ChatStatus; to: ChatStatus }
  | { type: "chat_refused"; chatId: string | null; status: number; code: string; message: string }
  | { type: "chat_failed"; chatId: string; message: string };

/**
 * What a course's model costs, per student: asked before each run of the
 * model, told what each call of it used.
 */
export interface ModelBudget {
  /**
   * Before a run of the model (a message, answers, a retry): words to refuse
   * it with (429, `over_budget`; the student sees them), or null to let it run.
   */
  admit?: (participantId: string) => string | null | undefined | Promise<string | null | undefined>;
  /** After each call of the model (a step of a run) that ended: the tokens it used. A call stopped midway is not told. */
  spent?: (event: { participantId: string; chatId: string; usage: LanguageModelUsage }) => void | Promise<void>;
}

export interface ChatEndpointsOptions {
  /** Where chats live: `createSqliteChatStore()` or `createPostgresChatStore()`. */
  store: ChatStore;
  model: LanguageModel;
  /** The system prompt. Only the server sets it; a client's system messages are never read. */
  instructions?: string;
  /**
   * The sandbox's files (`createSandboxFiles`), for messages with files the
   * student attached through the upload route: each is checked there for
   * the chat's owner. Without it a message with a file is refused.
   */
  attachments?: SandboxFiles;
  /** The server's own tools for one run of one chat. */
  tools: (context: ServerToolsContext) => ToolSet;
  /**
   * Settings a client may choose and the chat keeps, read from the body of
   * each request that carries any (the harness: its approval-gate switches).
   * Return undefined to keep what the chat has.
   */
  readOptions?: (body: Record<string, unknown>) => Record<string, unknown> | undefined;
  /**
   * Server tools a client may replace with a tool of its own of the same name (e.g. `["execute_code"]` for code run in the browser).
   * @default none
   */
  clientReplaceableTools?: readonly string[];
  /**
   * What results of client tools must be, by tool name. A declared output schema applies to tools not listed.
   * @default `execute_code` must be the kit's `ExecuteCodeResult`
   */
  resultContracts?: Record<string, ToolResultContract>;
  /**
   * How long an approval request stays answerable.
   * @default 10 minutes
   */
  approvalTtlMs?: number;
  /**
   * Model steps per run.
   * @default 5
   */
  maxSteps?: number;
  limits?: Partial<ChatLimits>;
  /**
   * The memory request bodies share while they arrive: their bytes count as
   * they come, each student and each `client` may hold only part of it, and
   * a body slower than `minBytesPerSecond` (after `graceMs`) is cut with 408.
   * @default 128 MiB in all, two bodies' worth (`limits.maxBodyBytes`) a student, sixteen a client, 64 KiB/s after 10 s
   */
  bodyBudget?: Partial<BodyBudgetOptions>;
  /**
   * How long a request (a new message, answers, results) waits for a run of the same chat that is ending before 409.
   * @default 5 000 ms
   */
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
  /**
   * A chat left running or pending this long is taken to be abandoned by a server that went away.
   * @default 15 minutes
   */
  staleAfterMs?: number;
  /**
   * The text a client sees for a failed run.
   * @default the error's message
   */
  onError?: (error: unknown) => string;
  /** Counts and caps what the model costs each student (tokens); nothing by default. */
  modelBudget?: ModelBudget;
  log?: (event: ChatLogEvent) => void;
  now?: () => number;
}
