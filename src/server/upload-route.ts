import { HttpRefusal, jsonResponse, refusalResponse } from "./http.js";
import { createSandboxFiles, type SandboxFiles, type SandboxFilesOptions } from "./sandbox-files.js";
import { readStudentFiles, uploadBodyLimit, type StudentFileCaps } from "./student-files.js";

export interface UploadRouteOptions extends SandboxFilesOptions {
  /**
   * Largest file a student may attach, in bytes (the mock sandbox takes up to 10 MiB).
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
   * Bytes of all uploads this route reads at once (each is held in memory
   * on its way to the sandbox); past it an upload is answered 503 with
   * `Retry-After`. Each participant has at most two uploads on the way.
   * @default 64 MiB
   */
  maxBytesInFlight?: number;
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
  const maxBytesInFlight = options.maxBytesInFlight ?? 64 * 1024 * 1024;
  let bytesInFlight = 0;
  const uploading = new Map<string, number>();
  /** Holds room for an upload of up to `bytes` for the participant; answers its release, or refuses. */
  const reserve = (participantId: string, bytes: number) => {
    if ((uploading.get(participantId) ?? 0) >= MAX_UPLOADS_PER_PARTICIPANT) {
      throw new HttpRefusal(
        429,
        "uploads_in_progress",
        "Two of your files are on their way already; wait for them.",
        {},
        { "retry-after": "2" },
      );
    }
    if (bytesInFlight + bytes > maxBytesInFlight) {
      throw new HttpRefusal(
        503,
        "server_busy",
        "The server is taking many files at once; try again in a moment.",
        {},
        { "retry-after": "5" },
      );
    }
    bytesInFlight += bytes;
    uploading.set(participantId, (uploading.get(participantId) ?? 0) + 1);
    return () => {
      bytesInFlight -= bytes;
      const left = (uploading.get(participantId) ?? 1) - 1;
      if (left) uploading.set(participantId, left);
      else uploading.delete(participantId);
    };
  };
  const sandbox = options.sandboxFiles ?? createSandboxFiles(options);
  const fileUrl =
    options.fileUrl ?? ((ref) => `/api/files/${encodeURIComponent(ref.sessionId)}/${encodeURIComponent(ref.fileId)}`);
  return {
    caps,
    async handle(request: Request, { participantId }: { participantId: string }): Promise<Response> {
      let release: () => void = () => undefined;
      try {
        if (request.method !== "POST")
          throw new HttpRefusal(405, "method_not_allowed", "Use POST.", {}, { allow: "POST" });
        // Room for the body as its length says, or for the largest allowed: it is read with that cap.
        const said = Number(request.headers.get("content-length") ?? Number.NaN);
        const limit = uploadBodyLimit(caps);
        release = reserve(participantId, Number.isFinite(said) ? Math.min(said, limit) : limit);
        const checked = await readStudentFiles(
          // Node's (the server entry's only runtime) web streams are async iterable; the DOM types do not say so.
          request.body as AsyncIterable<Uint8Array> | null,
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
        if (error instanceof HttpRefusal) return refusalResponse(error);
        throw error;
      } finally {
        release();
      }
    },
  };
}
