import type { UIMessage } from "ai";
import type { ChatStatus } from "./status.js";
import type { ChatListing, ChatSummary } from "./store.js";
import { HttpRefusal } from "../http/http.js";

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

/** Markdown's marks before a line's words: a heading, a quote, a list item. */
const LINE_MARKS = /^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d{1,9}[.)]\s+)+/;

/**
 * A chat's first title, as the list shows it: the first line of prose of its
 * first message without Markdown's marks; for a message of only code, its
 * first line without a comment's `#`. Cut to 80 characters.
 */
export function titleOf(message: UIMessage): string | null {
  const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  let inCode = false;
  let prose: string | undefined;
  let code: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("```") || line.startsWith("~~~")) inCode = !inCode;
    else if (inCode) code ??= line.replace(/^#+\s*/, "") || undefined;
    else prose = line.replace(LINE_MARKS, "").trim() || undefined;
    if (prose) break;
  }
  const line = prose ?? code;
  if (!line) return null;
  // By code point, so that a cut never splits a surrogate pair.
  const chars = [...line];
  return chars.length > 80 ? `${chars.slice(0, 79).join("")}…` : line;
}

/** The body of `PATCH /api/chats/:id`: only a title and the archived flag, checked. */
export function readListing(body: Record<string, unknown>): ChatListing {
  const change: ChatListing = {};
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
