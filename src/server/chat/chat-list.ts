import type { UIMessage } from "ai";
import type { ChatStatus } from "./status.js";
import type { ChatDescription, ChatSummary } from "./store.js";
import { HttpRefusal } from "../http.js";

/** What a list shows of a chat, on the wire. */
export interface ChatSummaryView {
  id: string;
  title: string | null;
  status: ChatStatus;
  archived: boolean;
  created_at: number;
  updated_at: number;
}

export const summaryView = (chat: ChatSummary): ChatSummaryView => ({
  id: chat.id,
  title: chat.title,
  status: chat.status,
  archived: chat.archived,
  created_at: chat.createdAt,
  updated_at: chat.updatedAt,
});

const MAX_TITLE_CHARS = 200;

/** A chat's first title: the first line of its first message that is not a code fence, cut to 80 characters. */
export function titleOf(message: UIMessage): string | null {
  const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  const line = text
    .split("\n")
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate && !candidate.startsWith("```"));
  if (!line) return null;
  // By code point, so that a cut never splits a surrogate pair.
  const chars = [...line];
  return chars.length > 80 ? `${chars.slice(0, 79).join("")}…` : line;
}

/** The body of `PATCH /api/chats/:id`: only a title and the archived flag, checked. */
export function readDescription(body: Record<string, unknown>): ChatDescription {
  const change: ChatDescription = {};
  if ("title" in body) {
    const title = body.title;
    if (title !== null && (typeof title !== "string" || title.length > MAX_TITLE_CHARS)) {
      throw new HttpRefusal(
        400,
        "invalid_request",
        `title must be null or a string of at most ${MAX_TITLE_CHARS} characters.`,
      );
    }
    change.title = title === null ? null : title.trim() || null;
  }
  if ("archived" in body) {
    if (typeof body.archived !== "boolean")
      throw new HttpRefusal(400, "invalid_request", "archived must be true or false.");
    change.archived = body.archived;
  }
  if (!("title" in change) && !("archived" in change))
    throw new HttpRefusal(400, "invalid_request", "Send a title, archived, or both.");
  return change;
}
