import type { UIMessage } from "ai";
import { bytesInWords } from "../../contract/bytes-in-words.js";
import { normalizeExecuteCodeResult } from "../../contract/normalize.js";
import { nameInWords } from "./name-in-words.js";

/** Files a run of a chat is given at most (codeapi's sandboxes take 50 in `files`): the newest. */
export const MAX_CHAT_FILES = 50;

/** A file in a chat's working directory: the student's own, or one a run of the chat wrote. */
export interface ChatFile {
  /** Its path in a run's working directory. */
  name: string;
  mediaType: string;
  size: number;
  /** Where the sandbox keeps it (codeapi's session and file ids). */
  ref: { sessionId: string; fileId: string };
  from: "student" | "run";
}

/** What the server wrote on a student's file part when it took the message: never what the client said. */
export interface AttachmentFacts {
  /** The name a program opens it by (the part's `filename` is the name as given). */
  name: string;
  size: number;
  sessionId: string;
  fileId: string;
  /** For a CSV or TSV: its header row and row count, in words. */
  summary?: string;
}

/** The key of `AttachmentFacts` in a file part's `providerMetadata`. */
export const ATTACHMENT_FACTS_KEY = "executeCodeUi";

type FilePart = Extract<UIMessage["parts"][number], { type: "file" }>;

/** The facts the server wrote on a student's file part; null on any other part. */
export function attachmentFacts(part: UIMessage["parts"][number]): AttachmentFacts | null {
  if (part.type !== "file") return null;
  const facts = (part as FilePart).providerMetadata?.[ATTACHMENT_FACTS_KEY] as Partial<AttachmentFacts> | undefined;
  return typeof facts?.name === "string" &&
    typeof facts.size === "number" &&
    typeof facts.sessionId === "string" &&
    typeof facts.fileId === "string"
    ? (facts as AttachmentFacts)
    : null;
}

/**
 * The files a chat's next run is given, from its stored messages alone:
 * what the student attached and what runs wrote, the latest of each name,
 * less what the sandbox said was gone.
 */
export function chatFiles(messages: readonly UIMessage[], toolName = "execute_code"): ChatFile[] {
  const files = new Map<string, ChatFile>();
  const put = (file: ChatFile) => {
    files.delete(file.name);
    files.set(file.name, file);
  };
  for (const message of messages) {
    for (const part of message.parts) {
      const facts = attachmentFacts(part);
      if (facts) {
        put({
          name: facts.name,
          mediaType: (part as FilePart).mediaType,
          size: facts.size,
          ref: { sessionId: facts.sessionId, fileId: facts.fileId },
          from: "student",
        });
        continue;
      }
      if (part.type !== `tool-${toolName}` || !("state" in part) || part.state !== "output-available") continue;
      const result = normalizeExecuteCodeResult(part.output);
      if (result.status !== "completed" && result.status !== "timeout") continue;
      for (const name of [...(result.filesGone ?? []), ...(result.filesRemoved ?? [])]) files.delete(name);
      for (const file of result.files ?? [])
        put({ name: file.name, mediaType: file.mediaType, size: file.size, ref: file.ref, from: "run" });
    }
  }
  return [...files.values()].slice(-MAX_CHAT_FILES);
}

/** The chat's files as the model reads them, one line each. */
export function describeChatFiles(files: readonly ChatFile[]): string[] {
  return files.map(
    (file) =>
      `- ${nameInWords(file.name)} (${file.mediaType}, ${bytesInWords(file.size)}, ${file.from === "student" ? "from the student" : "written by an earlier run"})`,
  );
}
