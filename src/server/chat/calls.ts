import type { UIMessage } from "ai";
import { RUN_STOPPED } from "../../contract/result.js";
import type { ChatRecord } from "./store.js";

/** A tool part of a UI message, as stored: the fields the chat reads and writes. */
export interface ToolPart {
  type: string;
  toolCallId: string;
  toolName?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  providerExecuted?: boolean;
  approval?: { id: string; approved?: boolean; reason?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export function isToolPart(part: unknown): part is ToolPart {
  if (!part || typeof part !== "object") return false;
  const { type, toolCallId } = part as { type?: unknown; toolCallId?: unknown };
  return (
    typeof type === "string" && (type.startsWith("tool-") || type === "dynamic-tool") && typeof toolCallId === "string"
  );
}

/** The tool parts of a message. */
export function toolParts(message: UIMessage): ToolPart[] {
  return (message.parts as unknown[]).filter(isToolPart);
}

export function toolNameOf(part: ToolPart): string {
  return part.type === "dynamic-tool" ? (part.toolName ?? "") : part.type.slice("tool-".length);
}

/** The chat's last message when it is the assistant's (the only one that can wait for answers). */
export function lastAssistant(messages: readonly UIMessage[]): UIMessage | undefined {
  const last = messages.at(-1);
  return last?.role === "assistant" ? last : undefined;
}

export interface PendingCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface PendingApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Calls of the client's own tools in the last assistant message that have no result yet. */
export function pendingCalls(chat: Pick<ChatRecord, "messages" | "tools">): PendingCall[] {
  const dynamic = new Set(chat.tools.map((tool) => tool.name));
  const message = lastAssistant(chat.messages);
  if (!message) return [];
  return toolParts(message)
    .filter((part) => part.state === "input-available" && !part.providerExecuted && dynamic.has(toolNameOf(part)))
    .map((part) => ({ toolCallId: part.toolCallId, toolName: toolNameOf(part), input: part.input }));
}

/** Approval requests of server tools in the last assistant message that have no answer yet. */
export function pendingApprovals(chat: Pick<ChatRecord, "messages">): PendingApproval[] {
  const message = lastAssistant(chat.messages);
  if (!message) return [];
  return toolParts(message)
    .filter((part) => part.state === "approval-requested" && typeof part.approval?.id === "string")
    .map((part) => ({
      approvalId: part.approval!.id,
      toolCallId: part.toolCallId,
      toolName: toolNameOf(part),
      input: part.input,
    }));
}

/** Every tool call id in the chat, with whether the client's tools made it. */
export function allCalls(
  chat: Pick<ChatRecord, "messages" | "tools">,
): Map<string, { toolName: string; dynamic: boolean }> {
  const dynamic = new Set(chat.tools.map((tool) => tool.name));
  const calls = new Map<string, { toolName: string; dynamic: boolean }>();
  for (const message of chat.messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts) {
      if (!isToolPart(part)) continue;
      const toolName = toolNameOf(part);
      calls.set(part.toolCallId, { toolName, dynamic: dynamic.has(toolName) });
    }
  }
  return calls;
}

export interface AcceptedResult {
  toolCallId: string;
  isError: boolean;
  /** The result (valid against the tool's contract), or the error text. */
  output: unknown;
}

export interface ApprovalAnswer {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

/** The messages with the last assistant message's awaited calls answered. */
export function applyAnswers(
  messages: readonly UIMessage[],
  results: readonly AcceptedResult[],
  approvals: readonly ApprovalAnswer[],
): UIMessage[] {
  const byCall = new Map(results.map((result) => [result.toolCallId, result]));
  const byApproval = new Map(approvals.map((answer) => [answer.approvalId, answer]));
  return mapLastAssistant(messages, (part) => {
    const result = byCall.get(part.toolCallId);
    if (result && part.state === "input-available") {
      const { output: _output, errorText: _errorText, ...rest } = part;
      return result.isError
        ? { ...rest, state: "output-error", errorText: String(result.output) }
        : { ...rest, state: "output-available", output: result.output };
    }
    const answer = part.approval ? byApproval.get(part.approval.id) : undefined;
    if (answer && part.state === "approval-requested") {
      return {
        ...part,
        state: "approval-responded",
        approval: { ...part.approval!, approved: answer.approved, ...(answer.reason ? { reason: answer.reason } : {}) },
      };
    }
    return part;
  });
}

export const CANCELLED_BY_NEW_MESSAGE = "Cancelled: a new message was sent before this call was answered.";

/** The messages with every awaited call of the last assistant message cancelled (a new user message came first). */
export function cancelAwaited(chat: Pick<ChatRecord, "messages" | "tools">): UIMessage[] {
  const dynamic = new Set(chat.tools.map((tool) => tool.name));
  return mapLastAssistant(chat.messages, (part) => {
    if (part.state === "input-available" && dynamic.has(toolNameOf(part))) {
      return { ...part, state: "output-error", errorText: CANCELLED_BY_NEW_MESSAGE };
    }
    if (part.state === "approval-requested" && part.approval) {
      return {
        ...part,
        state: "output-denied",
        approval: { ...part.approval, approved: false, reason: CANCELLED_BY_NEW_MESSAGE },
      };
    }
    return part;
  });
}

export const STOPPED_BEFORE_RESULT =
  "The run was stopped before this call returned: there is no output to tell. Do not guess it.";

/**
 * The messages of a stopped run with every server call of its last
 * assistant message that has no result given one: a stop can come between
 * an approval and the program's start, and a call without a result would
 * make the chat unreadable to the model. `execute_code` gets the kit's
 * stopped result (the card shows it as cancelled); other tools an error.
 * Output a program streamed before the stop stays as it was, stamped with
 * when it stopped (`stoppedAt`), so the card says how long it ran.
 */
export function settleStoppedCalls(
  messages: readonly UIMessage[],
  clientToolNames: ReadonlySet<string>,
  now: number = Date.now(),
): UIMessage[] {
  return mapLastAssistant(messages, (part) => {
    if (clientToolNames.has(toolNameOf(part))) return part;
    // Only a run whose start is known and before now: a sandbox's clock ahead of this one's would give a negative time.
    const output = part.output as { status?: unknown; startedAt?: unknown } | undefined;
    const started = output?.status === "running" && typeof output.startedAt === "number" && output.startedAt <= now;
    if (toolNameOf(part) === "execute_code" && part.state === "output-available" && started)
      return { ...part, output: { ...output, stoppedAt: now } };
    const unanswered =
      part.state === "input-streaming" || part.state === "input-available" || part.state === "approval-responded";
    if (!unanswered) return part;
    if (part.approval?.approved === false) return { ...part, state: "output-denied" };
    if (toolNameOf(part) === "execute_code") {
      return {
        ...part,
        state: "output-available",
        input: part.input ?? {},
        output: { status: "error", code: RUN_STOPPED, message: STOPPED_BEFORE_RESULT },
      };
    }
    return { ...part, state: "output-error", input: part.input ?? {}, errorText: STOPPED_BEFORE_RESULT };
  });
}

function mapLastAssistant(messages: readonly UIMessage[], map: (part: ToolPart) => ToolPart): UIMessage[] {
  const last = lastAssistant(messages);
  if (!last) return [...messages];
  const parts = last.parts.map((part) => (isToolPart(part) ? (map(part) as unknown as typeof part) : part));
  return [...messages.slice(0, -1), { ...last, parts }];
}

/** Answers given too late (`ttlMs` after their request) become denials with the reason "expired": the code never runs. */
export function expireLateApprovals(
  chat: ChatRecord,
  answers: ApprovalAnswer[],
  { ttlMs, now }: { ttlMs: number; now: number },
): { approvals: ApprovalAnswer[]; expired: Set<string> } {
  const expired = new Set<string>();
  const requests = new Map(pendingApprovals(chat).map((request) => [request.approvalId, request]));
  const approvals = answers.map((answer) => {
    const at = chat.approvals[answer.approvalId];
    if (!answer.approved || (at !== undefined && now - at <= ttlMs)) return answer;
    expired.add(requests.get(answer.approvalId)!.toolCallId);
    return { approvalId: answer.approvalId, approved: false, reason: "expired" };
  });
  return { approvals, expired };
}
