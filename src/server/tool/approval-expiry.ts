import type { UIMessage, UIMessageChunk } from "ai";
import { APPROVAL_EXPIRED, type ExecuteCodeErrorResult } from "../../contract/index.js";

/** What the card is sent for a call whose approval expired: it shows the expired state. */
export const expiredApprovalResult: ExecuteCodeErrorResult = {
  status: "error",
  code: APPROVAL_EXPIRED,
  message: "The approval request expired, so this code was not run.",
};

/**
 * A chunk of the stream to the browser as the card must see it: the
 * denial of a call whose approval expired (which carries no reason) as
 * `expiredApprovalResult`; any other chunk as it is.
 */
export function toldExpired(chunk: UIMessageChunk, expiredToolCallIds: ReadonlySet<string>): UIMessageChunk {
  return chunk.type === "tool-output-denied" && expiredToolCallIds.has(chunk.toolCallId)
    ? { type: "tool-output-available", toolCallId: chunk.toolCallId, output: expiredApprovalResult }
    : chunk;
}

export interface ApprovalExpiryOptions {
  /**
   * How long an approval request stays answerable.
   * @default 10 minutes
   */
  ttlMs?: number;
  now?: () => number;
}

interface ApprovalPart {
  type: string;
  state?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

function approvalParts(message: UIMessage): ApprovalPart[] {
  return (message.parts as ApprovalPart[]).filter((part) => part.approval && typeof part.approval.id === "string");
}

/**
 * Makes unanswered approval requests expire. Record each request as it is
 * streamed (`recordRequest`, or `recordRequests` for a finished message);
 * before handling the next chat request, pass
 * its messages through `expireStale`: an approval that comes too late, twice,
 * or for a request this server never made is turned into a denial with the
 * reason "expired", so the code never runs. Tell the browser with
 * `expiredApprovalResult` in place of the stream's `tool-output-denied`.
 */
export function createApprovalExpiry(options: ApprovalExpiryOptions = {}) {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const issued = new Map<string, number>();

  const prune = () => {
    const time = now();
    for (const [id, at] of issued) if (time - at > ttlMs) issued.delete(id);
  };

  const record = (approvalId: string) => {
    if (!issued.has(approvalId)) issued.set(approvalId, now());
  };

  return {
    ttlMs,
    recordRequest(approvalId: string): void {
      prune();
      record(approvalId);
    },
    recordRequests(message: UIMessage): void {
      prune();
      for (const part of approvalParts(message)) if (part.state === "approval-requested") record(part.approval!.id);
    },
    expireStale<M extends UIMessage>(messages: M[]): { messages: M[]; expiredToolCallIds: Set<string> } {
      const time = now();
      const expiredToolCallIds = new Set<string>();
      const checked = messages.map((message) => {
        if (message.role !== "assistant") return message;
        let changed = false;
        const parts = message.parts.map((raw) => {
          const part = raw as ApprovalPart;
          if (part.state !== "approval-responded" || part.approval?.approved !== true) return raw;
          const at = issued.get(part.approval.id);
          if (at !== undefined && time - at <= ttlMs) {
            issued.delete(part.approval.id); // one answer per request
            return raw;
          }
          changed = true;
          expiredToolCallIds.add((part as { toolCallId?: string }).toolCallId ?? "");
          return { ...part, approval: { ...part.approval, approved: false, reason: "expired" } } as typeof raw;
        });
        return changed ? { ...message, parts } : message;
      });
      return { messages: checked, expiredToolCallIds };
    },
  };
}
