import type { AttachmentAdapter, CompleteAttachment, PendingAttachment } from "@assistant-ui/react";
import { STUDENT_FILE_EXTENSIONS, studentFileType } from "../contract/file-name.js";
import { formatBytes } from "../ui/format.js";
import { errorMessage } from "../contract/error-message.js";

export interface ExecuteCodeAttachmentOptions {
  /**
   * The app's upload route (`createUploadRoute`), same origin.
   * @default "/api/uploads"
   */
  url?: string;
  /**
   * Largest file, checked here before anything is sent: keep it the route's.
   * @default 10 MiB
   */
  maxFileBytes?: number;
  /** The messages a chip shows when a file cannot go; English by default. */
  messages?: Partial<AttachmentMessages>;
  /**
   * Set where files cannot go (a chat whose code runs in the browser): every
   * file is refused with this sentence on its chip.
   */
  unavailable?: string;
}

export interface AttachmentMessages {
  tooLarge: (name: string, size: string, max: string) => string;
  empty: (name: string) => string;
  notTaken: (name: string, kinds: string) => string;
  failed: (name: string, why: string) => string;
}

const englishMessages: AttachmentMessages = {
  tooLarge: (name, size, max) => `${name} is ${size}; a file may be at most ${max}.`,
  empty: (name) => `${name} is empty.`,
  notTaken: (name, kinds) => `${name} cannot go to the sandbox: it takes ${kinds} files.`,
  failed: (name, why) => `${name} did not reach the sandbox: ${why}`,
};

const NUMBERS = { decimal: ".", group: "," };

/** What the upload route answers for a file. */
interface Uploaded {
  url: string;
  mediaType: string;
  size: number;
}

/** A POST with the upload's progress, 0 to 1, as it goes. */
function postWithProgress(url: string, body: FormData, onProgress: (done: number) => void, signal: AbortSignal) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => resolve({ status: request.status, text: request.responseText });
    request.onerror = () => reject(new Error("the server could not be reached. Try again."));
    request.onabort = () => reject(new Error("the upload was stopped."));
    signal.addEventListener("abort", () => request.abort(), { once: true });
    request.send(body);
  });
}

/**
 * assistant-ui's attachment adapter for a student's files: each file is
 * checked here (kind, size), then uploaded at once to the app's upload
 * route, its chip showing the progress, and the message carries only the
 * reference the route answered (the file route's URL), never the bytes. A
 * file that cannot go says why on its chip and is not sent.
 *
 * `useAISDKRuntime(chat, { adapters: { attachments: createExecuteCodeAttachmentAdapter() } })`
 */
export function createExecuteCodeAttachmentAdapter(options: ExecuteCodeAttachmentOptions = {}): AttachmentAdapter {
  const url = options.url ?? "/api/uploads";
  const maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
  const messages = { ...englishMessages, ...options.messages };
  const uploaded = new Map<string, Uploaded>();
  const uploads = new Map<string, AbortController>();

  async function* add({ file }: { file: File }): AsyncGenerator<PendingAttachment, void> {
    const id = crypto.randomUUID();
    const base = { id, type: "file", name: file.name, contentType: studentFileType(file.name) ?? file.type, file };
    const refuse = (message: string): PendingAttachment => ({
      ...base,
      status: { type: "incomplete", reason: "error", message },
    });
    if (options.unavailable) return void (yield refuse(options.unavailable));
    if (!studentFileType(file.name))
      return void (yield refuse(messages.notTaken(file.name, STUDENT_FILE_EXTENSIONS.join(", "))));
    if (file.size === 0) return void (yield refuse(messages.empty(file.name)));
    if (file.size > maxFileBytes) {
      return void (yield refuse(
        messages.tooLarge(file.name, formatBytes(file.size, NUMBERS), formatBytes(maxFileBytes, NUMBERS)),
      ));
    }
    // Progress events wake the generator; it yields the latest.
    let progress = 0;
    let wake: () => void = () => undefined;
    const abort = new AbortController();
    uploads.set(id, abort);
    const form = new FormData();
    form.append("file", file, file.name);
    let settled = false;
    const answer = postWithProgress(
      url,
      form,
      (done) => {
        progress = done;
        wake();
      },
      abort.signal,
    ).finally(() => {
      settled = true;
      wake();
    });
    answer.catch(() => undefined);
    while (!settled) {
      yield { ...base, status: { type: "running", reason: "uploading", progress } };
      await new Promise<void>((resolve) => (wake = resolve));
    }
    uploads.delete(id);
    let reply: { status: number; text: string };
    try {
      reply = await answer;
    } catch (error) {
      return void (yield refuse(messages.failed(file.name, errorMessage(error))));
    }
    let body: { files?: Uploaded[]; message?: string } | null = null;
    try {
      body = JSON.parse(reply.text);
    } catch {
      // Said below.
    }
    const kept = body?.files?.[0];
    if (reply.status !== 201 || !kept) {
      return void (yield refuse(body?.message ?? messages.failed(file.name, `the server answered ${reply.status}.`)));
    }
    uploaded.set(id, kept);
    yield { ...base, contentType: kept.mediaType, status: { type: "requires-action", reason: "composer-send" } };
  }

  return {
    accept: STUDENT_FILE_EXTENSIONS.join(","),
    add,
    async remove(attachment) {
      uploads.get(attachment.id)?.abort();
      uploads.delete(attachment.id);
      uploaded.delete(attachment.id);
    },
    async send(attachment): Promise<CompleteAttachment> {
      const kept = uploaded.get(attachment.id);
      if (!kept) throw new Error(`${attachment.name} has not reached the sandbox.`);
      uploaded.delete(attachment.id);
      return {
        ...attachment,
        status: { type: "complete" },
        content: [
          { type: "file", sourceType: "id", data: kept.url, mimeType: kept.mediaType, filename: attachment.name },
        ],
      };
    },
  };
}
