import { HttpRefusal, mediaTypeOf } from "./http.js";
import type { CheckedStudentFile } from "./student-files.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "./token.js";

export interface SandboxFilesOptions {
  /** The sandbox service, as for `createExecuteCodeTool`. */
  sandboxUrl: string;
  signing: TokenMinterOptions | TokenMinter;
  tenantId: string;
  fetch?: typeof fetch;
}

/** A file the sandbox keeps, where it keeps it. */
export interface KeptFile {
  sessionId: string;
  fileId: string;
  /** The name a program opens it by. */
  name: string;
  mediaType: string;
  size: number;
}

export type SandboxFiles = ReturnType<typeof createSandboxFiles>;

const unreachable = (what: string) =>
  new HttpRefusal(502, "sandbox_unavailable", `${what}: the code runner cannot be reached right now. Try again.`);

/**
 * A participant's files in the sandbox, each request with a short-lived
 * token for that participant: codeapi's `POST /v1/upload` and
 * `GET /v1/download/{session}/{file}`. The sandbox answers only the
 * files' owner.
 */
export function createSandboxFiles(options: SandboxFilesOptions) {
  const minter = toTokenMinter(options.signing);
  const doFetch = options.fetch ?? fetch;
  const authorization = async (participantId: string) =>
    `Bearer ${await minter.mint({ participantId, tenantId: options.tenantId })}`;

  return {
    /** Uploads checked files as one session, all or none; refuses with the sandbox's reason in words. */
    async upload(participantId: string, files: CheckedStudentFile[], signal?: AbortSignal): Promise<KeptFile[]> {
      const form = new FormData();
      for (const { file, name } of files) form.append("file", file, name);
      let answer: Response;
      try {
        answer = await doFetch(new URL("/v1/upload", options.sandboxUrl), {
          method: "POST",
          headers: { authorization: await authorization(participantId) },
          body: form,
          signal,
        });
      } catch {
        throw unreachable("The files did not reach the sandbox");
      }
      const body = (await answer.json().catch(() => null)) as {
        message?: unknown;
        session_id?: unknown;
        files?: Array<{ fileId?: unknown; filename?: unknown; content_type?: unknown; size?: unknown }>;
      } | null;
      if (!answer.ok) {
        const reason = typeof body?.message === "string" ? body.message : `HTTP ${answer.status}`;
        if (answer.status === 429) throw new HttpRefusal(429, "busy", `The code runner is busy: ${reason}`);
        throw new HttpRefusal(
          answer.status >= 500 ? 502 : answer.status,
          "upload_refused",
          `The sandbox did not take the files: ${reason}`,
        );
      }
      const sessionId = body?.session_id;
      const kept = Array.isArray(body?.files) ? body.files : [];
      if (typeof sessionId !== "string" || kept.length !== files.length) {
        throw new HttpRefusal(502, "upload_refused", "The sandbox's answer to the upload is not one it should give.");
      }
      return kept.map((entry, index) => ({
        sessionId,
        fileId: String(entry.fileId),
        name: typeof entry.filename === "string" ? entry.filename : files[index]!.name,
        mediaType: typeof entry.content_type === "string" ? entry.content_type : files[index]!.mediaType,
        size: typeof entry.size === "number" ? entry.size : files[index]!.file.size,
      }));
    },

    /** A kept file of the participant's, with its bytes; null when the sandbox no longer has it for them. */
    async read(
      participantId: string,
      ref: { sessionId: string; fileId: string },
      signal?: AbortSignal,
    ): Promise<(KeptFile & { bytes: Uint8Array }) | null> {
      let answer: Response;
      try {
        answer = await doFetch(new URL(`/v1/download/${ref.sessionId}/${ref.fileId}`, options.sandboxUrl), {
          headers: { authorization: await authorization(participantId) },
          signal,
        });
      } catch {
        throw unreachable("The file cannot be read from the sandbox");
      }
      if (answer.status === 404) return null;
      if (!answer.ok) throw new HttpRefusal(502, "sandbox_failed", `The sandbox failed (HTTP ${answer.status}).`);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      const name = answer.headers.get("x-file-name");
      return {
        ...ref,
        name: name ? decodeURIComponent(name) : ref.fileId,
        mediaType: mediaTypeOf(answer.headers.get("content-type")) || "application/octet-stream",
        size: bytes.length,
        bytes,
      };
    },
  };
}
