/**
 * The chat's status machine: the one place that says which status follows
 * which. Every write of a chat goes through `nextStatus`, and every store
 * write is conditional on the status and version it was read with, so two
 * requests (or two servers) can never both move a chat from the same state.
 */

/**
 * - `idle`: nothing is running and nothing is awaited; a new user message may come.
 * - `running`: the model loop is running for this chat on some server.
 * - `requires_action`: the loop ended on calls that the client must answer
 *   (results of its own tools, or approvals of server tools).
 * - `pending`: the answers were accepted; the loop is about to take them.
 * - `error`: the loop failed; a new user message may come.
 */
export type ChatStatus = "idle" | "running" | "requires_action" | "pending" | "error";

export const CHAT_STATUSES: readonly ChatStatus[] = ["idle", "running", "requires_action", "pending", "error"];

/**
 * What happened to a chat:
 * - `start`: a new user message (or a regenerate) starts the loop;
 * - `submit`: the client answered every awaited call (the first answer wins);
 * - `resume`: the loop takes the accepted answers;
 * - `wait`: the loop ended on calls the client must answer;
 * - `finish`: the loop ended with nothing awaited (or was stopped);
 * - `fail`: the loop failed;
 * - `abandon`: a chat left running or pending by a server that went away.
 */
export type ChatEvent = "start" | "submit" | "resume" | "wait" | "finish" | "fail" | "abandon";

const TRANSITIONS: Readonly<Record<ChatStatus, Partial<Record<ChatEvent, ChatStatus>>>> = {
  idle: { start: "running" },
  error: { start: "running" },
  // A new message while calls are awaited cancels them.
  requires_action: { submit: "pending", start: "running" },
  pending: { resume: "running", abandon: "error" },
  running: { wait: "requires_action", finish: "idle", fail: "error", abandon: "error" },
};

/** A move the status machine does not allow: the chat is not where the request expected it. */
export class ChatStateConflict extends Error {
  constructor(
    readonly status: ChatStatus,
    readonly event: ChatEvent,
  ) {
    super(`A chat that is ${status} cannot ${event}.`);
  }
}

/** The status after `event`, or a `ChatStateConflict` when the machine does not allow it. */
export function nextStatus(status: ChatStatus, event: ChatEvent): ChatStatus {
  const next = TRANSITIONS[status][event];
  if (!next) throw new ChatStateConflict(status, event);
  return next;
}

/** Whether `event` is allowed from `status`. */
export function canMove(status: ChatStatus, event: ChatEvent): boolean {
  return TRANSITIONS[status][event] !== undefined;
}

/** Whether a run of the chat has started and not yet been stored as ended (on this server or another). */
export function isMidRun(status: ChatStatus): boolean {
  return status === "running" || status === "pending";
}
