import { isTable, tableSummary } from "./file-summary.js";
import { HttpRefusal, mediaTypeOf } from "../http/http.js";
import type { CheckedStudentFile } from "./student-files.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "../token.js";

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
  /** A table's header row and row count in words (CSV, TSV), made once. */
  summary?: string;
}

export type SandboxFiles = ReturnType<typeof createSandboxFiles>;

/** Summaries made here, for a sandbox that keeps none (a file's bytes never change under its id). */
const MAX_SUMMARIES = 1_000;

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
  const summaries = new Map<string, string | undefined>();

  async function fetchFile(
    method: "GET" | "HEAD",
    participantId: string,
    ref: { sessionId: string; fileId: string },
    signal?: AbortSignal,
  ): Promise<Response | null> {
    let answer: Response;
    try {
      answer = await doFetch(new URL(`/v1/download/${ref.sessionId}/${ref.fileId}`, options.sandboxUrl), {
        method,
        headers: { authorization: await authorization(participantId) },
        signal,
      });
    } catch {
      throw unreachable("The file cannot be read from the sandbox");
    }
    if (answer.status === 404) return null;
    if (!answer.ok && !(method === "HEAD" && answer.status === 405))
      throw new HttpRefusal(502, "sandbox_failed", `The sandbox failed (HTTP ${answer.status}).`);
    return answer;
  }

  const factsOf = (ref: { sessionId: string; fileId: string }, answer: Response, size: number): KeptFile => {
    const name = answer.headers.get("x-file-name");
    const summary = answer.headers.get("x-file-summary");
    return {
      ...ref,
      name: name ? decodeURIComponent(name) : ref.fileId,
      mediaType: mediaTypeOf(answer.headers.get("content-type")) || "application/octet-stream",
      size,
      ...(summary ? { summary: decodeURIComponent(summary) } : {}),
    };
  };

  /** A kept file of the participant's, with its bytes; null when the sandbox no longer has it for them. */
  async function read(
    participantId: string,
    ref: { sessionId: string; fileId: string },
    signal?: AbortSignal,
  ): Promise<(KeptFile & { bytes: Uint8Array }) | null> {
    const answer = await fetchFile("GET", participantId, ref, signal);
    if (!answer) return null;
    const bytes = new Uint8Array(await answer.arrayBuffer());
    return { ...factsOf(ref, answer, bytes.length), bytes };
  }

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
        // A full store is the sandbox's own refusal, not a bad gateway: the student may try again later.
        if (answer.status === 507) throw new HttpRefusal(507, "no_room", reason);
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

    read,

    /**
     * What a kept file of the participant's is, without its bytes (`HEAD`),
     * its table summary as the sandbox made it on upload; null when the
     * sandbox no longer has it for them. Where the sandbox makes none, the
     * file is read and summed up once here.
     */
    async describe(
      participantId: string,
      ref: { sessionId: string; fileId: string },
      signal?: AbortSignal,
    ): Promise<KeptFile | null> {
      const head = await fetchFile("HEAD", participantId, ref, signal);
      if (!head) return null;
      const size = Number(head.headers.get("content-length"));
      const told = head.ok && Number.isSafeInteger(size) ? factsOf(ref, head, size) : null;
      // A sandbox that sums tables up says so for each, with an empty summary for one with no rows.
      if (told && (head.headers.has("x-file-summary") || !isTable(told.mediaType))) return told;
      const key = JSON.stringify([participantId, ref.sessionId, ref.fileId]);
      let kept: KeptFile | null = told;
      if (!told || !summaries.has(key)) {
        // A sandbox without HEAD, or without summaries: the bytes, read here.
        const file = await read(participantId, ref, signal);
        if (!file) return null;
        const { bytes, ...facts } = file;
        kept = facts;
        if (!summaries.has(key)) {
          if (summaries.size >= MAX_SUMMARIES) summaries.delete(summaries.keys().next().value!);
          summaries.set(key, facts.summary ?? tableSummary(bytes, facts.mediaType));
        }
      }
      const summary = summaries.get(key);
      return summary ? { ...kept!, summary } : kept;
    },
  };
}
