import type { UIMessage } from "ai";
import { nextStatus, type ChatEvent, type ChatStatus } from "./status.js";

/** A tool the chat's client runs itself, declared when the chat is created. */
export interface DynamicToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema), as the model sees it. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema that every result of this tool must fit; results of known tools (execute_code) fit the kit's contract instead. */
  outputSchema?: Record<string, unknown>;
}

/** One chat, as stored: the only truth about it. */
export interface ChatRecord {
  id: string;
  /** The participant the chat belongs to; no one else can read or write it. */
  owner: string;
  status: ChatStatus;
  /** Increases with every write; writes are conditional on it. */
  version: number;
  messages: UIMessage[];
  /** Tools the client runs itself. */
  tools: DynamicToolSpec[];
  /** Settings the host keeps with the chat (the harness: its approval gate). */
  options: Record<string, unknown>;
  /** Approval requests awaiting an answer: approval id → when it was made (ms since the epoch). */
  approvals: Record<string, number>;
  /** Why the last run failed, for `error`. */
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What a list of chats shows of one. */
export interface ChatSummary {
  id: string;
  status: ChatStatus;
  /** Set by the owner, or taken from the chat's first message; null before either. */
  title: string | null;
  archived: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What the owner may change about how a chat is listed. */
export interface ChatListing {
  title?: string | null;
  archived?: boolean;
}

/** @deprecated The old name of `ChatListing`. */
export type ChatDescription = ChatListing;

/** What `ChatStore.head` reads of a chat. */
export type ChatHead = Pick<ChatRecord, "owner" | "id" | "status" | "version" | "updatedAt">;

/** Where chats live. Every write but the first is a compare-and-set on (status, version). */
export interface ChatStore {
  /** Adds a chat; false when the owner already has a chat with that id. */
  insert(chat: ChatRecord): Promise<boolean>;
  get(owner: string, id: string): Promise<ChatRecord | null>;
  /**
   * A chat's status, version and last change without its messages: what a
   * request that follows or stops a run needs, at a cost that does not grow
   * with the chat. A store without it is read whole.
   */
  head?(owner: string, id: string): Promise<ChatHead | null>;
  /**
   * Writes `next` in place of the stored chat when the stored one still has
   * `expected`'s status and version: one conditional UPDATE. False when
   * another write came first (the caller lost the race).
   */
  replace(expected: Pick<ChatRecord, "owner" | "id" | "status" | "version">, next: ChatRecord): Promise<boolean>;
  /** A random secret made once per store and kept in it (for approval signatures that outlive a restart). */
  secret(name: string): Promise<Uint8Array>;
  /** The owner's chats without their messages, the most recently changed first. */
  list(owner: string, options: { limit: number }): Promise<ChatSummary[]>;
  /**
   * Sets what a list shows of a chat, apart from its versioned record (a
   * rename never conflicts with a run). With `ifUntitled`, the title is set
   * only while the chat has none. False when the owner has no such chat.
   */
  setListing(owner: string, id: string, change: ChatListing & { ifUntitled?: boolean }): Promise<boolean>;
  /** Deletes a chat and its listing; false when the owner has no such chat. */
  remove(owner: string, id: string): Promise<boolean>;
  /**
   * Marks a running chat as still being run (its `updatedAt` set to `at`)
   * while it stays at `version`: the heartbeat by which other servers, and
   * this one after a restart, tell a live run from one whose server went
   * away. A store without it leaves that to `staleAfterMs`.
   */
  touch?(chat: Pick<ChatRecord, "owner" | "id" | "version">, at: number): Promise<void>;
  /** Bytes the owner's chats take (their stored JSON), for the per-participant quota. A store without it has no quota. */
  usage?(owner: string): Promise<number>;
  /**
   * Bytes the store's chats take in all, every owner's, for the bound on the
   * whole store (`maxStoredBytes`): cheap enough to ask on every new chat or
   * message, so it may count the store's own pages rather than the chats'
   * JSON. A store without it has no such bound.
   */
  totalUsage?(): Promise<number>;
  /** Deletes every chat (of every owner) not changed since `before` (ms since the epoch); resolves with how many. A store without it keeps chats forever. */
  purge?(before: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Moves a stored chat by `event`, with `change` applied: the status comes
 * from the status machine, the write is conditional on the chat being as it
 * was read. Resolves with the new record, or null when another request moved
 * the chat first.
 */
export async function moveChat(
  store: ChatStore,
  chat: ChatRecord,
  event: ChatEvent,
  change: Partial<Pick<ChatRecord, "messages" | "options" | "approvals" | "error">> = {},
  now: number = Date.now(),
): Promise<ChatRecord | null> {
  const next: ChatRecord = {
    ...chat,
    ...change,
    status: nextStatus(chat.status, event),
    version: chat.version + 1,
    updatedAt: now,
  };
  return (await store.replace(chat, next)) ? next : null;
}

/** The JSON kept in a store's `data` column: everything but the keys and the columns of its own. */
export interface StoredChatData {
  messages: UIMessage[];
  tools: DynamicToolSpec[];
  options: Record<string, unknown>;
  approvals: Record<string, number>;
  error: string | null;
}

export function chatData(chat: ChatRecord): string {
  const data: StoredChatData = {
    messages: chat.messages,
    tools: chat.tools,
    options: chat.options,
    approvals: chat.approvals,
    error: chat.error,
  };
  return JSON.stringify(data);
}

/**
 * The values of both stores' conditional UPDATE, in its order: the new
 * status, version, data and time, then the chat and the status and version
 * it must still have.
 */
export const replaceValues = (expected: Parameters<ChatStore["replace"]>[0], next: ChatRecord) => [
  next.status,
  next.version,
  chatData(next),
  next.updatedAt,
  expected.owner,
  expected.id,
  expected.status,
  expected.version,
];

export function chatFromRow(row: {
  owner: string;
  id: string;
  status: string;
  version: number | string;
  data: string;
  created_at: number | string;
  updated_at: number | string;
}): ChatRecord {
  const data = JSON.parse(row.data) as StoredChatData;
  return {
    id: row.id,
    owner: row.owner,
    status: row.status as ChatStatus,
    version: Number(row.version),
    ...data,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A list row of a store, as a summary. */
export function summaryFromRow(row: {
  id: string;
  status: string;
  title: string | null;
  archived: number | boolean | null;
  created_at: number | string;
  updated_at: number | string;
}): ChatSummary {
  return {
    id: row.id,
    status: row.status as ChatStatus,
    title: row.title,
    archived: Boolean(row.archived),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
