import { HttpRefusal, jsonResponse, refusalResponse } from "../http/http.js";
import { createSandboxFiles, type SandboxFiles, type SandboxFilesOptions } from "./sandbox-files.js";
import { readStudentFiles, uploadBodyLimit, type StudentFileCaps } from "./student-files.js";
import type { MeteredBody } from "../http/body-budget.js";
import { createUploadBudget, DEFAULT_UPLOAD_BUDGET } from "./upload-budget.js";

/**
 * The route's caps and budget, and where the files go: a codeapi sandbox
 * (`sandboxUrl`, `signing`, `tenantId`), or `sandboxFiles` (the chat
 * endpoints' `attachments`, or a Jupyter sandbox's `studentFiles(tenantId)`).
 */
export type UploadRouteOptions = UploadRouteSettings &
  (SandboxFilesOptions | { sandboxFiles: SandboxFiles; sandboxUrl?: never });

interface UploadRouteSettings {
  /**
   * Largest file a student may attach, in bytes (the sandbox takes up to 10 MiB).
   * @default 10 MiB
   */
  maxFileBytes?: number;
  /**
   * Files in one upload.
   * @default 5
   */
  maxFiles?: number;
  /**
   * Bytes of one upload's files together.
   * @default 20 MiB
   */
  maxTotalBytes?: number;
  /**
   * Bytes of all uploads this route holds at once (each is held in memory
   * on its way to the sandbox), counted as they arrive; past it an upload
   * is answered 503 with `Retry-After`.
   * @default 128 MiB
   */
  maxBytesInFlight?: number;
  /**
   * Bytes one participant's uploads may hold at once; past it their upload
   * is answered 429. Each participant also has at most two uploads on the way.
   * @default one upload at its largest (`maxTotalBytes` and framing)
   */
  maxParticipantBytesInFlight?: number;
  /**
   * Slowest rate an upload's body may arrive at, with ten seconds of slack
   * that its earlier bytes cannot bank more of; a slower one is answered
   * 408 and keeps nothing, so neither an idle connection nor a fast start
   * followed by a trickle holds the memory others need.
   * @default 64 KiB a second (a 10 MiB file in under three minutes)
   */
  minBytesPerSecond?: number;
  /**
   * Where an upload comes from beyond its participant, such as the client's
   * address as your proxy tells it: the uploads of one client together hold
   * at most `maxClientBytesInFlight`, so that many sign-ins of one person
   * cannot take all of `maxBytesInFlight`. Leave it out where many students
   * share an address you cannot tell apart.
   */
  clientOf?: (request: Request) => string | null | undefined;
  /** @default twice `maxParticipantBytesInFlight` */
  maxClientBytesInFlight?: number;
  /**
   * The app's URL of a kept file (its file route), which the message's file part carries.
   * @default `/api/files/{sessionId}/{fileId}`
   */
  fileUrl?: (ref: { sessionId: string; fileId: string }) => string;
  /** Shared with the chat endpoints' `attachments`; made from the options above when absent. */
  sandboxFiles?: SandboxFiles;
}

export const DEFAULT_UPLOAD_CAPS: StudentFileCaps = {
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 5,
  maxTotalBytes: 20 * 1024 * 1024,
};
const MAX_UPLOADS_PER_PARTICIPANT = 2;

/** What the upload route answers for each file: the reference a message carries, never the bytes. */
export interface UploadedFile {
  /** The name as the student gave it, for showing. */
  name: string;
  /** The name a program opens it by. */
  storedName: string;
  mediaType: string;
  size: number;
  /** The app's URL of the file: the file part's `url`. */
  url: string;
}

/**
 * The route a student's files go through on their way to the sandbox:
 * `POST` multipart (the composer's attachment adapter sends one file a
 * request). It checks each file (kind, size, count, a safe name), uploads
 * it to the sandbox for the caller with a token minted here, and answers
 * 201 `{ files: UploadedFile[] }`; the bytes stay with the sandbox, which
 * answers only their owner. A refusal says why in words and keeps nothing.
 */
export function createUploadRoute(options: UploadRouteOptions) {
  const caps: StudentFileCaps = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_UPLOAD_CAPS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULT_UPLOAD_CAPS.maxFiles,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_UPLOAD_CAPS.maxTotalBytes,
  };
  const participantShare = options.maxParticipantBytesInFlight ?? uploadBodyLimit(caps);
  const budget = createUploadBudget({
    maxBytesInFlight: options.maxBytesInFlight ?? DEFAULT_UPLOAD_BUDGET.maxBytesInFlight,
    maxParticipantBytesInFlight: participantShare,
    maxClientBytesInFlight: options.maxClientBytesInFlight ?? 2 * participantShare,
    minBytesPerSecond: options.minBytesPerSecond ?? DEFAULT_UPLOAD_BUDGET.minBytesPerSecond,
    graceMs: DEFAULT_UPLOAD_BUDGET.graceMs,
  });
  const uploading = new Map<string, number>();
  /** Counts the participant's upload while it lasts, or refuses a third. */
  const admit = (participantId: string) => {
    if ((uploading.get(participantId) ?? 0) >= MAX_UPLOADS_PER_PARTICIPANT) {
      throw new HttpRefusal(
        429,
        "uploads_in_progress",
        "Two of your files are on their way already; wait for them.",
        {},
        { "retry-after": "2" },
      );
    }
    uploading.set(participantId, (uploading.get(participantId) ?? 0) + 1);
    return () => {
      const left = (uploading.get(participantId) ?? 1) - 1;
      if (left) uploading.set(participantId, left);
      else uploading.delete(participantId);
    };
  };
  const sandbox = options.sandboxFiles ?? createSandboxFiles(options as SandboxFilesOptions);
  const fileUrl =
    options.fileUrl ?? ((ref) => `/api/files/${encodeURIComponent(ref.sessionId)}/${encodeURIComponent(ref.fileId)}`);
  return {
    caps,
    async handle(request: Request, { participantId }: { participantId: string }): Promise<Response> {
      let leave: () => void = () => undefined;
      let body: MeteredBody | undefined;
      try {
        if (request.method !== "POST")
          throw new HttpRefusal(405, "method_not_allowed", "Use POST.", {}, { allow: "POST" });
        leave = admit(participantId);
        body = budget.open(participantId, request.body, options.clientOf?.(request) ?? undefined);
        const checked = await readStudentFiles(
          body.chunks,
          { contentType: request.headers.get("content-type"), contentLength: request.headers.get("content-length") },
          caps,
        );
        const kept = await sandbox.upload(participantId, checked, request.signal);
        const files: UploadedFile[] = kept.map((file, index) => ({
          name: checked[index]!.givenName,
          storedName: file.name,
          mediaType: file.mediaType,
          size: file.size,
          url: fileUrl(file),
        }));
        return jsonResponse(201, { files });
      } catch (error) {
        if (!(error instanceof HttpRefusal)) throw error;
        const refused = refusalResponse(error);
        // Refused with its body perhaps unread: the connection is not kept for another request.
        if (body) refused.headers.set("connection", "close");
        return refused;
      } finally {
        body?.release();
        leave();
      }
    },
  };
}
