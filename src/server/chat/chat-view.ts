import type { UIMessage } from "ai";
import { pendingApprovals, pendingCalls } from "./calls.js";
import type { ChatStatus } from "./status.js";
import type { ChatRecord } from "./store.js";

/** What a client may see of a chat. */
export interface ChatView {
  id: string;
  status: ChatStatus;
  messages: UIMessage[];
  tools: Array<{
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
    output_schema?: Record<string, unknown>;
  }>;
  /** What the chat waits for, when `requires_action`. */
  required_action: {
    tool_calls: Array<{ tool_call_id: string; name: string; input: unknown }>;
    approvals: Array<{ approval_id: string; tool_call_id: string; name: string; input: unknown }>;
  } | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export function chatView(chat: ChatRecord): ChatView {
  return {
    id: chat.id,
    status: chat.status,
    messages: chat.messages,
    tools: chat.tools.map((spec) => ({
      name: spec.name,
      description: spec.description,
      input_schema: spec.inputSchema,
      ...(spec.outputSchema ? { output_schema: spec.outputSchema } : {}),
    })),
    required_action:
      chat.status === "requires_action"
        ? {
            tool_calls: pendingCalls(chat).map((call) => ({
              tool_call_id: call.toolCallId,
              name: call.toolName,
              input: call.input,
            })),
            approvals: pendingApprovals(chat).map((request) => ({
              approval_id: request.approvalId,
              tool_call_id: request.toolCallId,
              name: request.toolName,
              input: request.input,
            })),
          }
        : null,
    error: chat.error,
    created_at: chat.createdAt,
    updated_at: chat.updatedAt,
  };
}
