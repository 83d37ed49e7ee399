import type { ExecuteCodeCallState } from "./view-types.js";

/** The fields of an AI SDK tool UI part (`part.type === "tool-execute_code"`) that the card reads. */
export interface AISDKToolPartLike {
  state:
    | "input-streaming"
    | "input-available"
    | "approval-requested"
    | "approval-responded"
    | "output-available"
    | "output-error"
    | "output-denied";
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/**
 * Maps a tool part of the AI SDK's `useChat` messages to the card's call
 * state, for apps that render `ExecuteCodeCard` without assistant-ui.
 */
export function fromAISDKToolPart(part: AISDKToolPartLike): ExecuteCodeCallState {
  const args = part.input ?? {};
  const base = { args, argsComplete: part.state !== "input-streaming", approval: part.approval };
  switch (part.state) {
    case "input-streaming":
    case "input-available":
    case "approval-responded":
      return { ...base, status: { type: "running" } };
    case "approval-requested":
      return { ...base, status: { type: "requires-action", reason: "interrupt" } };
    case "output-available":
      return { ...base, status: { type: "complete" }, result: part.output };
    case "output-error":
      return { ...base, status: { type: "complete" }, result: { error: part.errorText ?? "" }, isError: true };
    case "output-denied":
      return {
        ...base,
        status: { type: "complete" },
        approval: { id: part.approval?.id ?? "", ...part.approval, approved: false },
      };
  }
}
