import type { UIMessage } from "ai";
import { isToolPart, lastAssistant, pendingApprovals, pendingCalls } from "./calls.js";
import type { ChatRecord } from "./store.js";
import { HttpRefusal } from "../http/http.js";
import { isValidId, userParts, type ChatLimits, type RawApproval, type RawResult } from "./validate.js";

/** What a request adds to a chat. */
export type Submission =
  | { kind: "message"; message: UIMessage }
  | { kind: "retry" }
  | { kind: "regenerate" }
  | { kind: "answers"; results: RawResult[]; approvals: RawApproval[] };

/** The chat is not where the request expected it. */
export const conflict = (chat: Pick<ChatRecord, "status">, message: string) =>
  new HttpRefusal(409, "conflict", message, { status: chat.status });

/** Reads what is new in an AI SDK request (`{ id, messages, trigger, messageId }`), and nothing else. */
export function readAISDKSubmission(chat: ChatRecord, body: Record<string, unknown>, limits: ChatLimits): Submission {
  if (body.trigger === "regenerate-message") return { kind: "regenerate" };
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new HttpRefusal(400, "invalid_request", "The request has no messages.");
  }
  const last = body.messages.at(-1) as { id?: unknown; role?: unknown; parts?: unknown } | null;
  if (!last || typeof last !== "object")
    throw new HttpRefusal(400, "invalid_request", "The last message is not an object.");
  if (last.role === "user") {
    const stored = chat.messages.find((message) => message.id === last.id);
    if (stored) {
      // The same message again (a retry after a failure): run it again only if nothing answered it.
      if (chat.messages.at(-1)?.id === last.id) return { kind: "retry" };
      throw conflict(chat, "This message was answered already.");
    }
    const id = isValidId(last.id) ? last.id : `msg_${crypto.randomUUID()}`;
    return { kind: "message", message: { id, role: "user", parts: userParts(last.parts, limits) } };
  }
  if (last.role === "assistant") {
    const storedLast = lastAssistant(chat.messages);
    if (!storedLast || storedLast.id !== last.id || chat.status !== "requires_action") {
      throw conflict(chat, `The chat is ${chat.status}: it is not waiting for answers to this message.`);
    }
    const awaitedCalls = new Set(pendingCalls(chat).map((call) => call.toolCallId));
    const awaitedApprovals = new Set(pendingApprovals(chat).map((request) => request.approvalId));
    const results: RawResult[] = [];
    const approvals: RawApproval[] = [];
    for (const part of Array.isArray(last.parts) ? last.parts : []) {
      if (!isToolPart(part)) continue;
      // Only answers to what the chat awaits are read; anything else in the message (server results, text) is the client's own view.
      if (awaitedCalls.has(part.toolCallId)) {
        if (part.state === "output-available") results.push({ tool_call_id: part.toolCallId, output: part.output });
        if (part.state === "output-error")
          results.push({ tool_call_id: part.toolCallId, output: part.errorText ?? "", is_error: true });
      } else if (
        part.approval &&
        awaitedApprovals.has(part.approval.id) &&
        (part.state === "approval-responded" || part.state === "output-denied")
      ) {
        approvals.push({
          approval_id: part.approval.id,
          approved: part.approval.approved === true,
          reason: part.approval.reason,
        });
      }
    }
    return { kind: "answers", results, approvals };
  }
  throw new HttpRefusal(
    400,
    "invalid_request",
    "The last message must be the user's new message or the assistant message with your answers.",
  );
}
