import {
  parseSandboxResponse,
  sandboxTimedOut,
  sandboxTruncation,
  type ExecuteCodeResult,
  type ExecuteCodeRunFile,
  type SandboxResponse,
} from "../../contract/index.js";
import { readRetryAfterMs } from "../http/retry-after.js";
import { readFailure, type ExecuteCodeFailure } from "../../contract/failure.js";
import { isFileRefId } from "../../contract/file-ref-id.js";
import { keepHeadAndTailAfter, truncationOf } from "../../contract/truncate.js";
import { mediaTypeOf } from "../http/http.js";
import { sandboxBusy, sandboxError, type OutputLimits, type SandboxFileRef, type SandboxOutcome } from "../sandbox.js";
import { SHOWN_IMAGES } from "../files/media-type.js";

export interface SandboxRequest {
  /** Base URL of the sandbox service, e.g. `https://sandbox.example.edu`. */
  url: string;
  token: string;
  code: string;
  /** Files put in the run's working directory first. */
  files?: SandboxFileRef[];
  signal: AbortSignal;
  fetch?: typeof fetch;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function sandboxMessage(body: unknown, text: string): string {
  if (body && typeof body === "object") {
    for (const key of ["message", "error", "detail"]) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === "string" && value) return value;
    }
  }
  return firstLine(text);
}

export const NDJSON = "application/x-ndjson";

/**
 * POSTs the program to `/v1/exec`, asking for the output as it is written
 * (NDJSON) and taking the plain JSON answer from a sandbox that does not
 * stream. Network failures throw; the caller decides what an abort means.
 */
export async function postToSandbox(request: SandboxRequest): Promise<Response> {
  const doFetch = request.fetch ?? fetch;
  return doFetch(new URL("/v1/exec", request.url), {
    method: "POST",
    headers: {
      authorization: `Bearer ${request.token}`,
      "content-type": "application/json",
      accept: `${NDJSON}, application/json;q=0.9`,
    },
    body: JSON.stringify({
      lang: "py",
      code: request.code,
      ...(request.files?.length ? { files: request.files } : {}),
    }),
    signal: request.signal,
  });
}

/** Whether the sandbox answered with a stream of output events. */
export function isSandboxStream(response: Response): boolean {
  return response.ok && mediaTypeOf(response.headers.get("content-type")) === NDJSON;
}

/** Turns any HTTP answer of the sandbox into the kit's result; nothing it said is dropped. */
export async function readSandboxResponse(response: Response, limits: OutputLimits): Promise<SandboxOutcome> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }

  if (response.status === 429) {
    return sandboxBusy(
      "The code runner is busy (too many runs in a short time).",
      readRetryAfterMs(response.headers.get("retry-after"), body),
    );
  }
  if (response.status === 401 || response.status === 403) {
    return sandboxError(
      "sandbox_unauthorized",
      `The code runner refused the request (HTTP ${response.status}: ${sandboxMessage(body, text) || "not authorised"}). This is a set-up problem on the server, not a problem with the program.`,
    );
  }
  if (response.status === 413) {
    return sandboxError(
      "program_too_large",
      `The code runner refused the program as too large: ${sandboxMessage(body, text)}`,
    );
  }
  if (response.status >= 400 && response.status < 500) {
    return sandboxError(
      "sandbox_rejected",
      `The code runner rejected the request (HTTP ${response.status}): ${sandboxMessage(body, text) || "no reason given"}.`,
    );
  }
  if (response.status >= 500) {
    return sandboxError(
      "sandbox_failed",
      `The code runner failed (HTTP ${response.status})${text ? `: ${sandboxMessage(body, text)}` : ""}. The program may not have run; trying again later can help.`,
    );
  }
  if (body === undefined) {
    return sandboxError(
      "malformed_response",
      `The code runner answered with something that is not JSON: ${firstLine(text) || "(empty body)"}`,
    );
  }
  return resultFromAnswer(body, text, limits);
}

/** The sandbox's flat answer (the whole body, or the last line of a stream) as the kit's result. */
export function resultFromAnswer(body: unknown, text: string, limits: OutputLimits): SandboxOutcome {
  const parsed = parseSandboxResponse(body);
  if (!parsed.success) {
    return sandboxError(
      "malformed_response",
      `The code runner's answer is missing fields (${parsed.problems.join(", ")}): ${firstLine(text)}`,
    );
  }
  const r = parsed.response;
  // What the sandbox cut before answering counts too.
  const earlier = sandboxTruncation(r);
  const stdout = keepHeadAndTailAfter(r.stdout, limits.stdout, earlier.stdout);
  const stderr = keepHeadAndTailAfter(r.stderr, limits.stderr, earlier.stderr);
  const common = {
    stdout: stdout.text,
    stderr: stderr.text,
    wallTimeMs: r.wall_time ?? null,
    truncated: truncationOf(stdout, stderr),
  };
  const files = runFiles(r);
  // A file the sandbox did not keep is said, never silently missing.
  const filesCut = r.files_cut ?? 0;
  const used = r.files_read ?? [];
  const gone = (r.files_missing ?? []).flatMap((ref) => (ref.name ? [ref.name] : []));
  const removed = r.files_removed ?? [];
  const withFiles = {
    ...common,
    ...(files.length ? { files } : {}),
    ...(filesCut ? { filesCut } : {}),
    ...(used.length ? { filesUsed: used } : {}),
    ...(gone.length ? { filesGone: gone } : {}),
    ...(removed.length ? { filesRemoved: removed } : {}),
  };
  const result: ExecuteCodeResult = sandboxTimedOut(r)
    ? { status: "timeout", timeoutMs: r.time_limit_ms ?? null, ...withFiles }
    : { status: "completed", exitCode: r.code, signal: r.signal ?? null, ...withFacts(withFiles, r.failure) };
  return { ok: true, result };
}

/** A failed run's facts beside its result, where the sandbox gave them in the kit's shape. */
function withFacts<T extends object>(result: T, facts: unknown): T & { failure?: ExecuteCodeFailure } {
  const failure = readFailure(facts);
  return failure ? { ...result, failure } : result;
}

const MAX_ALT_CHARS = 300;

const isPixels = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 100_000;

/** The sandbox's `files` as the kit's references: names, types and sizes, never the bytes. */
function runFiles(response: SandboxResponse): ExecuteCodeRunFile[] {
  const sessionId = response.session_id;
  if (!isFileRefId(sessionId) || !response.files) return [];
  return response.files.flatMap((entry) => {
    if (!entry || typeof entry !== "object") return [];
    const { id, name, content_type, size, alt, width, height } = entry as Record<string, unknown>;
    // An id the file route cannot take (`..`) would point the card's link elsewhere: the file is left out.
    if (!isFileRefId(id) || typeof name !== "string") return [];
    const mediaType = typeof content_type === "string" && content_type ? content_type : "application/octet-stream";
    return [
      {
        name,
        mediaType,
        size: typeof size === "number" && Number.isInteger(size) && size >= 0 ? size : 0,
        kind: SHOWN_IMAGES.has(mediaType) ? ("image" as const) : ("file" as const),
        // A figure's description is the program's to write: short, on one line.
        ...(typeof alt === "string" && alt
          ? { alt: alt.replace(/[\p{Cc}\p{Cf}]/gu, " ").slice(0, MAX_ALT_CHARS) }
          : {}),
        ...(isPixels(width) && isPixels(height) ? { width, height } : {}),
        ref: { sessionId, fileId: id },
      },
    ];
  });
}
