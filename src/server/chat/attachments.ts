import type { UIMessage } from "ai";
import { bytesInWords } from "../../contract/bytes-in-words.js";
import { ATTACHMENT_FACTS_KEY, attachmentFacts, type AttachmentFacts } from "../tool/chat-files.js";
import { HttpRefusal } from "../http/http.js";
import { nameInWords } from "../tool/name-in-words.js";
import type { SandboxFiles } from "../files/sandbox-files.js";
import type { ChatRecord } from "./store.js";
import type { ChatLimits, RawFilePart } from "./validate.js";

const ID = /^[\w-]{1,100}$/;

/** The sandbox's session and file ids from a file route URL (its last two segments). */
function refOf(url: string): { sessionId: string; fileId: string } | null {
  let sessionId: string | undefined;
  let fileId: string | undefined;
  try {
    [sessionId, fileId] = new URL(url, "http://app.invalid").pathname.split("/").slice(-2).map(decodeURIComponent);
  } catch {
    return null;
  }
  return sessionId && fileId && ID.test(sessionId) && ID.test(fileId) ? { sessionId, fileId } : null;
}

const isRawFile = (part: UIMessage["parts"][number]): part is RawFilePart & UIMessage["parts"][number] =>
  part.type === "file";

/**
 * A new user message's file parts, checked against the sandbox for the
 * chat's owner: each must be a file the sandbox keeps for them, and the
 * chat's attachments stay within `maxFileBytesPerChat`. Each part gets the
 * server's facts (the name a program opens it by, its size, a table's
 * header and rows); a refusal says why in words and stores nothing.
 */
export async function acceptAttachments(
  chat: Pick<ChatRecord, "owner" | "messages" | "tools">,
  message: UIMessage,
  { files, limits, signal }: { files: SandboxFiles | undefined; limits: ChatLimits; signal?: AbortSignal },
): Promise<UIMessage> {
  const raw = message.parts.filter(isRawFile);
  if (!raw.length) return message;
  if (!files) throw new HttpRefusal(400, "files_not_taken", "This chat takes no files.");
  if (chat.tools.some((tool) => tool.name === "execute_code")) {
    throw new HttpRefusal(
      400,
      "files_need_server",
      "Files need the server sandbox: this chat runs code in the browser, where they cannot go.",
    );
  }
  let bytes = chat.messages
    .flatMap((stored) => stored.parts.map(attachmentFacts))
    .reduce((sum, facts) => sum + (facts?.size ?? 0), 0);
  const checked = new Map<RawFilePart, UIMessage["parts"][number]>();
  for (const part of raw) {
    const ref = refOf(part.url);
    // What the file is, without its bytes: its summary was made once, when it arrived.
    const kept = ref ? await files.describe(chat.owner, ref, signal) : null;
    if (!ref || !kept) {
      throw new HttpRefusal(
        400,
        "file_gone",
        `"${part.filename}" is not a file the code runner keeps for you (it expired, or never reached it): attach it again.`,
      );
    }
    bytes += kept.size;
    if (bytes > limits.maxFileBytesPerChat) {
      throw new HttpRefusal(
        413,
        "chat_files_full",
        `A chat's files may take at most ${bytesInWords(limits.maxFileBytesPerChat)} together; "${part.filename}" does not fit. Start a new chat for more.`,
      );
    }
    const facts: AttachmentFacts = { name: kept.name, size: kept.size, ...ref };
    const summary = kept.summary;
    checked.set(part, {
      type: "file",
      url: part.url,
      mediaType: kept.mediaType,
      filename: part.filename,
      providerMetadata: { [ATTACHMENT_FACTS_KEY]: { ...facts, ...(summary ? { summary } : {}) } },
    });
  }
  return { ...message, parts: message.parts.map((part) => (isRawFile(part) ? checked.get(part)! : part)) };
}

/** The chat as the model reads it: each attached file in words (what it is, the name to open), never its bytes. */
export function attachmentsInWords(messages: readonly UIMessage[]): UIMessage[] {
  return messages.map((message) =>
    message.role !== "user" || !message.parts.some((part) => part.type === "file")
      ? message
      : {
          ...message,
          parts: message.parts.flatMap((part) => {
            if (part.type !== "file") return [part];
            const facts = attachmentFacts(part);
            if (!facts) return [];
            const summary = facts.summary ? `; ${facts.summary}` : "";
            return [
              {
                type: "text" as const,
                text: `[The student attached ${JSON.stringify(part.filename)} (${part.mediaType}, ${bytesInWords(facts.size)}${summary}). A program opens it as ${nameInWords(facts.name)} in its working directory.]`,
              },
            ];
          }),
        },
  );
}
