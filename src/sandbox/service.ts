// Over 300 lines: the codeapi contract of the sandbox (tokens, rate
// limits, the queue, streamed and flat answers, files) over one request
// handler; the scheduler, rate limiter, replay guard and file store are
// modules of their own.

import { readFailure } from "../contract/failure.js";
import { withNote } from "../contract/stderr-note.js";
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errors, jwtVerify, type CryptoKey, type JWTPayload, type KeyObject } from "jose";
import { MAX_CODE_LENGTH } from "../contract/input.js";
import { HttpRefusal, readJsonBytes } from "../server/http/http.js";
import { isTable, tableSummary } from "../server/files/file-summary.js";
import { uploadBodyLimit } from "../server/files/student-files.js";
import { createUploadBudget, DEFAULT_UPLOAD_BUDGET } from "../server/files/upload-budget.js";
import { codeapiId } from "../server/codeapi-id.js";
import { sendJson as json } from "../server/http/node-json.js";
import { changedFiles, withoutDrawnCopies, type Executor } from "./executor.js";
import { createRateLimiter, type RateLimit } from "./rate-limiter.js";
import { createReplayGuard } from "./replay-guard.js";
import { createRunFileStore, DEFAULT_RUN_FILE_STORE_BYTES_PER_OWNER, type OwnerMatch } from "./run-file-store.js";
import { readUpload } from "./upload-body.js";
import { createRunScheduler, QueueFullError, type RunSchedule } from "./run-scheduler.js";

export interface SandboxOptions {
  /** Verifies the tokens that the server tool signs. */
  publicKey: CryptoKey | KeyObject;
  /**
   * Keys a trusted client may send in codeapi's `X-API-Key` header instead
   * of a token: a self-hosted LibreChat with `LIBRECHAT_CODE_API_KEY`. A key
   * speaks for its users: a run and its files are the `user_id` of the exec
   * body's (an upload's `User-Id` header), and a download, a listing or a
   * deletion reaches any file of the key's users.
   */
  apiKeys?: readonly string[];
  /**
   * Who reads the counts and the engine's state in `GET /v1/health`. Unset:
   * anyone (a service only your own server reaches, as the harness's). Set:
   * a request with `Authorization: Bearer <it>` (an empty string: nobody);
   * anyone else reads that it is up and which engine runs.
   */
  operatorToken?: string;
  algorithms: string[];
  issuer: string;
  audience: string;
  executor: Executor;
  /**
   * Per (tenant, user)
   * @default 20 executions per 30 s
   */
  rateLimit?: RateLimit;
  /**
   * Longest run before the program is ended, counted from its start (not its wait)
   * @default 10 000 ms
   */
  maxRunMs?: number;
  /**
   * How run slots are shared: at most `perParticipant` (2) programs running
   * per user, slots handed round in turn, a bounded queue that answers
   * 429 `busy` once full. `maxRunning` should not exceed what the executor
   * runs at once.
   */
  schedule?: RunSchedule;
  /**
   * How long files stay (a run's, downloadable with `GET /v1/download/…`,
   * and uploaded ones), in ms, counted again each time a run is given them.
   * @default 30 minutes
   */
  fileTtlMs?: number;
  /**
   * Largest file `POST /v1/upload` takes, in bytes.
   * @default 10 MiB
   */
  maxUploadFileBytes?: number;
  /**
   * Bytes of all runs' files kept at once. A file that would fit only by
   * dropping another user's files before their time is not kept, and the
   * answer counts it in `files_cut`.
   * @default 256 MiB
   */
  maxFileStoreBytes?: number;
  /**
   * Bytes of one (tenant, user)'s files kept at once; past it their own
   * oldest files make room for their newest, never anyone else's.
   * @default 32 MiB
   */
  maxFileStoreBytesPerUser?: number;
  /**
   * Longest token lifetime accepted, in seconds.
   * @default 300
   */
  maxTokenLifetimeSeconds?: number;
  /**
   * Clock difference allowed between the token's signer and this service, in seconds.
   * @default 30
   */
  clockToleranceSeconds?: number;
}

/** Whose a request is: a token's participant, or an API key's users. */
type Credentials = Caller | { tenant: string; owns: OwnerMatch };

/** The participant a request is for, and what files it reaches. */
interface Caller {
  participant: string;
  /** Where its request came from (a token's `client`), within its tenant: its turns are its client's. */
  client?: string;
  /** Its own files, or (an API key) any of its key's users'. */
  owns: OwnerMatch;
}

/** A user an API key's request names: LibreChat's are ids of its database. */
const USER_ID = /^[\w.@:+-]{1,128}$/;

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/**
 * One name for a participant or a client, as JSON: no tenant, user or key
 * can be chosen to read as another (`"a"` and `"b:c"` against `"a:b"` and
 * `"c"`, or a token's tenant named like a key's).
 */
const identity = (kind: "token" | "client" | "key", ...parts: string[]) => JSON.stringify([kind, ...parts]);

export const DEFAULT_SANDBOX_RATE_LIMIT: RateLimit = { max: 20, windowMs: 30_000 };
const MAX_TOKEN_CHARS = 4096;
const MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_MAX_UPLOAD_FILE_BYTES = 10 * 1024 * 1024;
/** Files one upload may carry, and files one run may be given. */
const MAX_UPLOAD_FILES = 10;
const MAX_RUN_INPUTS = 50;

const NDJSON = "application/x-ndjson";

function wantsStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").split(",").some((type) => type.split(";")[0]!.trim() === NDJSON);
}

/** Lines of JSON on a response whose headers go out with the first line, so a fault before any output can still answer plainly. */
function startStream(res: ServerResponse) {
  let started = false;
  const line = (event: unknown) => {
    if (!started) {
      started = true;
      res.writeHead(200, { "content-type": NDJSON, "cache-control": "no-store" });
    }
    res.write(`${JSON.stringify(event)}\n`);
  };
  return {
    started: () => started,
    send: line,
    end(event: unknown) {
      line(event);
      res.end();
    },
  };
}

/** What anyone may read of the executor's health: no host process ids. */
function publicHealth(health: Record<string, unknown>): Record<string, unknown> {
  const { interpreters, ...rest } = health;
  return Array.isArray(interpreters)
    ? { ...rest, interpreters: interpreters.map((interpreter: { state?: unknown }) => ({ state: interpreter.state })) }
    : rest;
}

/**
 * codeapi's `files` of an exec request: `[{ id, session_id, name }]`, each
 * naming a kept file (LibreChat's newer clients say `storage_session_id`).
 */
function fileRefs(value: unknown): Array<{ id: string; session_id: string; name: string }> {
  if (value === undefined || value === null) return [];
  const id = /^[\w-]{1,100}$/;
  const sessionOf = (ref: { session_id?: unknown; storage_session_id?: unknown }) =>
    String(ref.session_id ?? ref.storage_session_id);
  if (
    !Array.isArray(value) ||
    value.length > MAX_RUN_INPUTS ||
    !value.every(
      (ref) =>
        ref &&
        typeof ref === "object" &&
        id.test(String(ref.id)) &&
        id.test(sessionOf(ref)) &&
        (ref.name === undefined || typeof ref.name === "string"),
    )
  ) {
    throw new HttpRefusal(
      400,
      "invalid_files",
      `files must be at most ${MAX_RUN_INPUTS} references { id, session_id, name } to kept files.`,
    );
  }
  return value.map((ref) => ({ id: ref.id, session_id: sessionOf(ref), name: String(ref.name ?? "") }));
}

/**
 * The sandbox service, with codeapi's contract: `POST /v1/exec` with a
 * bearer JWT used once (its `jti` is remembered until it expires) or an
 * `X-API-Key`, a per-user rate limit, a maximum run time, and the flat
 * `{ stdout, stderr, code, signal, wall_time, session_id, files }` answer;
 * uploads, downloads, a session's files listed and deleted; and
 * `GET /v1/health` saying how programs are isolated.
 * Returns a request handler to mount on any Node HTTP server.
 */
export function createSandbox(options: SandboxOptions) {
  const limiter = createRateLimiter(options.rateLimit ?? DEFAULT_SANDBOX_RATE_LIMIT);
  const maxRunMs = options.maxRunMs ?? 10_000;
  const maxLifetime = options.maxTokenLifetimeSeconds ?? 300;
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const replays = createReplayGuard();
  // A first program is never stopped to make room: only one whose owner has used a whole run more than the waiting one.
  // A fresh id counts as having used a whole run: collecting cookies gets no one ahead of a student.
  const scheduler = createRunScheduler({ stopForUseMs: maxRunMs, newcomerUseMs: maxRunMs, ...options.schedule });
  const uploadCaps = {
    maxFileBytes: options.maxUploadFileBytes ?? DEFAULT_MAX_UPLOAD_FILE_BYTES,
    maxFiles: MAX_UPLOAD_FILES,
    // No more than one owner may keep (the store's share of each).
    maxTotalBytes: options.maxFileStoreBytesPerUser ?? DEFAULT_RUN_FILE_STORE_BYTES_PER_OWNER,
  };
  // Uploads in memory: counted as they arrive, one upload's worth a user, cut when they trickle.
  const uploadBudget = createUploadBudget({
    ...DEFAULT_UPLOAD_BUDGET,
    maxParticipantBytesInFlight: uploadBodyLimit(uploadCaps),
  });
  const runFiles = createRunFileStore({
    ttlMs: options.fileTtlMs,
    maxBytes: options.maxFileStoreBytes,
    maxBytesPerOwner: options.maxFileStoreBytesPerUser,
  });

  // Keys are compared as digests, in constant time; a key's users are named under the start of its digest.
  const keys = (options.apiKeys ?? []).filter(Boolean).map((key) => sha256(key));

  /**
   * Whose a request is: a token's participant, or an API key's (whose user
   * the request names later: `forUser`). Checked before a body is read.
   */
  async function authenticate(req: IncomingMessage): Promise<Credentials> {
    const sent = req.headers["x-api-key"];
    if (keys.length && typeof sent === "string" && sent) {
      const digest = sha256(sent);
      const key = keys.find((candidate) => timingSafeEqual(candidate, digest));
      if (!key) throw new HttpRefusal(401, "invalid_api_key", "The API key was refused.");
      const tenant = key.subarray(0, 8).toString("hex");
      const users = identity("key", tenant).slice(0, -1);
      return { tenant, owns: (owner) => owner.startsWith(`${users},`) };
    }
    const claims = await verifyToken(req);
    const participant = identity("token", String(claims.tenant_id), String(claims.sub));
    // The token's `client` (where its request came from), within its tenant.
    const client =
      typeof claims.client === "string" ? identity("client", String(claims.tenant_id), claims.client) : undefined;
    return { participant, owns: participant, ...(client === undefined ? {} : { client }) };
  }

  /** The participant a request runs or keeps files for: a token's, or the user a key's request names. */
  function forUser(credentials: Credentials, user: unknown): Caller {
    if ("participant" in credentials) return credentials;
    const name = user ?? "default";
    if (typeof name !== "string" || !USER_ID.test(name)) {
      throw new HttpRefusal(400, "invalid_user_id", "user_id must be 1 to 128 letters, digits or _ . @ : + -.");
    }
    return { participant: identity("key", credentials.tenant, name), owns: credentials.owns };
  }

  async function verifyToken(req: IncomingMessage): Promise<JWTPayload> {
    const header = req.headers.authorization ?? "";
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    if (!token) {
      throw keys.length
        ? new HttpRefusal(401, "missing_credentials", "A bearer token or an X-API-Key header is required.")
        : new HttpRefusal(401, "missing_token", "A bearer token is required.");
    }
    if (token.length > MAX_TOKEN_CHARS) throw new HttpRefusal(401, "token_too_long", "The token is too long.");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, options.publicKey, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: options.algorithms,
        requiredClaims: ["sub", "jti", "iat", "exp", "tenant_id"],
        // Also refuses an iat in the future (beyond the tolerance).
        maxTokenAge: maxLifetime,
        clockTolerance,
      }));
    } catch (error) {
      const reason =
        error instanceof errors.JWTExpired
          ? "token_expired"
          : error instanceof errors.JWTClaimValidationFailed
            ? `invalid_claim_${error.claim}`
            : "invalid_token";
      throw new HttpRefusal(401, reason, `The token was refused (${reason}).`);
    }
    if (payload.exp! - payload.iat! > maxLifetime) {
      throw new HttpRefusal(401, "token_lifetime_too_long", `Tokens may live at most ${maxLifetime} s.`);
    }
    if (typeof payload.jti !== "string" || !payload.jti)
      throw new HttpRefusal(401, "invalid_claim_jti", "The token has no usable jti.");
    // Each token runs one program: the same token sent again is refused.
    if (!replays.firstUse(payload.jti, payload.exp! + clockTolerance)) {
      throw new HttpRefusal(401, "token_replayed", "This token was already used; each execution needs a new token.");
    }
    return payload;
  }

  /** Takes one of the participant's requests; answers 429 and false when they have used them up. */
  function rateAllows(res: ServerResponse, participant: string): boolean {
    const limit = limiter.take(participant);
    if (limit.allowed) return true;
    const seconds = Math.ceil(limit.retryAfterMs / 1000);
    json(
      res,
      429,
      { error: "rate_limited", message: "Too many requests.", retry_after_seconds: seconds },
      { "retry-after": String(seconds) },
    );
    return false;
  }

  /**
   * `POST /v1/upload` (multipart, one or more files): keeps them for the
   * caller, all or none, and answers codeapi's
   * `{ message, session_id, files: [{ fileId, filename }] }` (with each
   * file's type and size). A name is stored safe (`safeFileName`), once.
   */
  async function upload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { participant, client } = forUser(await authenticate(req), req.headers["user-id"]);
    if (!rateAllows(res, participant)) return;
    // A table is summed up once, as it arrives: every message that attaches it reads the summary.
    const files = (await readUpload(req, uploadCaps, uploadBudget, participant)).map((file) => {
      const summary = tableSummary(file.bytes, file.mediaType);
      return summary ? { ...file, summary } : file;
    });
    const sessionId = codeapiId();
    const kept = runFiles.put(sessionId, participant, files, client);
    if (kept.notKept) {
      runFiles.discard(sessionId, participant);
      throw new HttpRefusal(
        507,
        "no_room",
        "The sandbox has no room for these files now (each student's files are bounded); try again with fewer or smaller files later.",
      );
    }
    json(res, 201, {
      message: "success",
      session_id: sessionId,
      files: kept.entries.map((entry) => ({
        fileId: entry.id,
        filename: entry.name,
        content_type: entry.content_type,
        size: entry.size,
      })),
    });
  }

  async function exec(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const credentials = await authenticate(req);
    // A key's users are named in the body: before it is read, they share the line of requests of no known sender.
    const sender = "participant" in credentials ? credentials.participant : undefined;
    const body = (await readJsonBytes(req, MAX_BODY_BYTES, 0, sender)) as {
      lang?: unknown;
      code?: unknown;
      files?: unknown;
      user_id?: unknown;
    } | null;
    if (body?.lang !== "py") throw new HttpRefusal(400, "unsupported_language", 'Only "py" is supported.');
    if (typeof body.code !== "string" || !body.code) throw new HttpRefusal(400, "missing_code", "No program was sent.");
    if (body.code.length > MAX_CODE_LENGTH) {
      throw new HttpRefusal(400, "program_too_long", `Programs may have at most ${MAX_CODE_LENGTH} characters.`);
    }

    const refs = fileRefs(body.files);
    // A key's user is the one the body names.
    const { participant, client } = forUser(credentials, body.user_id);
    if (!rateAllows(res, participant)) return;
    // Only the caller's own files: anyone else's are missing, as an expired one is.
    const given = runFiles.take(participant, refs);
    const inputs = new Map(given.found.map(({ file }) => [file.name, { name: file.name, bytes: file.bytes }]));

    // The caller hanging up (the user pressed stop) ends the run, or its wait.
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    // With `Accept: application/x-ndjson` the output streams as it is written,
    // one JSON object a line, and the flat answer comes last; without it the
    // answer is the one JSON object of the codeapi contract. `queued` and
    // `started` tell a caller waiting from running, so a wait for a slot is
    // never taken for the program's own time.
    const live = wantsStream(req) ? startStream(res) : null;
    // Once `queued` or output went out, the status line has too: a refusal is the stream's last line instead.
    const refuse = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      live?.started() ? live.end({ type: "refused", status, ...body }) : json(res, status, body, headers);
    let release: () => void;
    // The scheduler stopping the run to make room for someone who has used the sandbox far less.
    const makeRoom = new AbortController();
    try {
      // Many cookies of one client (the token's `client`) take their turns as one.
      const group = client === undefined ? `participant:${participant}` : `client:${client}`;
      release = await scheduler.acquire(participant, abort.signal, {
        onQueued: () => live?.send({ type: "queued" }),
        group,
        stop: () => makeRoom.abort(),
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      if (!(error instanceof QueueFullError)) throw error;
      const seconds = Math.max(1, Math.ceil(maxRunMs / 1000));
      return refuse(
        429,
        { error: "busy", message: error.message, retry_after_seconds: seconds },
        { "retry-after": String(seconds) },
      );
    }
    let outcome: Awaited<ReturnType<Executor["run"]>>;
    try {
      outcome = await options.executor.run({
        code: body.code,
        timeoutMs: maxRunMs,
        signal: AbortSignal.any([abort.signal, makeRoom.signal]),
        onStart: live ? () => live.send({ type: "started", time_limit_ms: maxRunMs }) : undefined,
        onOutput: live
          ? (stream, text, skipped) => live.send({ type: "output", stream, text, ...(skipped ? { skipped } : {}) })
          : undefined,
        files: [...inputs.values()],
      });
    } catch {
      if (abort.signal.aborted) return;
      // The engine lost the run (its interpreter died): a failure the caller is told of, not a stream cut short.
      return refuse(500, { error: "internal", message: "The sandbox failed in the middle of the run." });
    } finally {
      release();
    }
    if (abort.signal.aborted) return;

    if ("fault" in outcome) {
      const fault = outcome.fault;
      // A fault after output has streamed can only end the stream.
      if (live?.started()) return void req.socket.destroy();
      switch (fault.kind) {
        case "http-error":
          res.writeHead(fault.status, { "content-type": "text/plain" });
          return void res.end(fault.body ?? "Internal error");
        case "malformed-json":
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end('{"stdout": "4\\n", "stderr": ');
        case "reset":
          return void req.socket.destroy();
        case "rate-limit":
          return json(
            res,
            429,
            { error: "rate_limited", retry_after_seconds: fault.retryAfterSeconds },
            { "retry-after": String(fault.retryAfterSeconds) },
          );
      }
    }
    // Stopped to make room: the program did not end by itself, and its owner is told why.
    if (makeRoom.signal.aborted && outcome.exitCode === null && !outcome.timedOut) {
      const seconds = Math.max(1, Math.round(outcome.wallTimeMs / 1000));
      const note = `The sandbox was full: this program was stopped after ${seconds} s to let others' programs run, as yours had used it much more of late. Run it again in a moment.`;
      outcome = {
        ...outcome,
        stderr: withNote(outcome.stderr, note),
        // Said in plain words above the output too, where a phone does not cut the note's long line.
        failure: { type: "SandboxFull", message: note, explanation: { kind: "sandbox-full" } },
      };
    }
    // The bytes stay here, for the run's owner: GET /v1/download/{session_id}/{id}.
    const sessionId = codeapiId();
    const kept = runFiles.put(
      sessionId,
      participant,
      withoutDrawnCopies(changedFiles(outcome.files, [...inputs.values()])),
      client,
    );
    // Why it failed, for a run that raised: in the kit's shape or not at all.
    const failure = outcome.exitCode !== 0 && !outcome.timedOut ? readFailure(outcome.failure) : undefined;
    const answer = {
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      code: outcome.exitCode,
      signal: outcome.signal,
      wall_time: outcome.wallTimeMs,
      timed_out: outcome.timedOut,
      time_limit_ms: maxRunMs,
      stdout_truncated: outcome.truncated?.stdout ?? 0,
      stderr_truncated: outcome.truncated?.stderr ?? 0,
      // Where each cut is (the start and the end of a stream are kept) and how many lines it held.
      ...(outcome.truncated?.at?.stdout !== undefined ? { stdout_truncated_at: outcome.truncated.at.stdout } : {}),
      ...(outcome.truncated?.at?.stderr !== undefined ? { stderr_truncated_at: outcome.truncated.at.stderr } : {}),
      ...(outcome.truncated?.lines?.stdout ? { stdout_truncated_lines: outcome.truncated.lines.stdout } : {}),
      ...(outcome.truncated?.lines?.stderr ? { stderr_truncated_lines: outcome.truncated.lines.stderr } : {}),
      session_id: sessionId,
      files: kept.entries,
      // Files the run left that are not in `files`: past the executor's caps, or with no room in the store.
      files_cut: (outcome.filesCut ?? 0) + kept.notKept,
      // Of the files it was given: those the program opened (where the engine can tell), and those that were gone.
      ...(outcome.filesRead ? { files_read: outcome.filesRead } : {}),
      ...(outcome.filesRemoved?.length ? { files_removed: outcome.filesRemoved } : {}),
      files_missing: given.missing,
      ...(failure ? { failure } : {}),
    };
    if (live) live.end({ type: "result", ...answer });
    else json(res, 200, answer);
  }

  /**
   * A file of a run, to a caller with a token for the run's owner; 404 for
   * anyone else. `HEAD` tells what it is (with an upload's table summary in
   * `X-File-Summary`) without its bytes.
   */
  async function download(req: IncomingMessage, res: ServerResponse, sessionId: string, fileId: string): Promise<void> {
    const { owns } = await authenticate(req);
    const file = runFiles.get(sessionId, fileId, owns);
    if (!file) return json(res, 404, { error: "not_found", message: "This file does not exist, or it has expired." });
    res.writeHead(200, {
      "content-type": file.mediaType,
      "content-length": String(file.bytes.length),
      "x-file-name": encodeURIComponent(file.name),
      // For a table, always: empty when it has no rows to sum up, so nobody reads it to find that out.
      ...(isTable(file.mediaType) ? { "x-file-summary": encodeURIComponent(file.summary ?? "") } : {}),
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : file.bytes);
  }

  /**
   * `GET /v1/files/{session_id}`: the session's files for its owner, as
   * codeapi lists them (`name` is `{session_id}/{id}`, the file's own name
   * in `metadata["original-filename"]`); 404 for anyone else.
   */
  async function listFiles(req: IncomingMessage, res: ServerResponse, sessionId: string): Promise<void> {
    const { owns } = await authenticate(req);
    const files = runFiles.list(sessionId, owns);
    if (!files)
      return json(res, 404, { error: "not_found", message: "This session does not exist, or it has expired." });
    json(
      res,
      200,
      files.map(({ id, file }) => ({
        id,
        name: `${sessionId}/${id}`,
        session_id: sessionId,
        storage_session_id: sessionId,
        size: file.bytes.length,
        content_type: file.mediaType,
        metadata: { "original-filename": file.name, "content-type": file.mediaType },
      })),
      { "cache-control": "private, no-store" },
    );
  }

  /** `DELETE /v1/files/{session_id}/{id}`: the file is gone for good; 404 for anyone but its owner. */
  async function deleteFile(req: IncomingMessage, res: ServerResponse, sessionId: string, fileId: string) {
    const { owns } = await authenticate(req);
    if (!runFiles.remove(sessionId, fileId, owns)) {
      return json(res, 404, { error: "not_found", message: "This file does not exist, or it has expired." });
    }
    json(res, 200, { message: "deleted", session_id: sessionId, id: fileId });
  }

  const operator = options.operatorToken === undefined ? undefined : sha256(`Bearer ${options.operatorToken}`);
  const isOperator = (req: IncomingMessage) =>
    operator === undefined ||
    (options.operatorToken !== "" && timingSafeEqual(operator, sha256(req.headers.authorization ?? "")));

  const fail = (res: ServerResponse) => (error: unknown) => {
    if (res.headersSent) return void res.end();
    if (error instanceof HttpRefusal) return json(res, error.status, error.body, error.headers);
    json(res, 500, { error: "internal", message: "The sandbox failed." });
  };

  return {
    /** Handles `/v1/exec`, `/v1/upload`, `/v1/download/…`, `/v1/files/…` and `/v1/health`; returns false for any other path so the host can route it. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const path = (req.url ?? "").split("?")[0];
      if (path === "/v1/health") {
        // What isolation this machine gives the programs; no secrets, no program data. The counts are an operator's.
        const health = options.executor.health?.() ?? {};
        json(
          res,
          200,
          isOperator(req)
            ? { status: "ok", ...publicHealth(health), schedule: scheduler.stats() }
            : { status: "ok", ...(typeof health.executor === "string" ? { executor: health.executor } : {}) },
          { "cache-control": "no-store" },
        );
        return true;
      }
      const downloading = /^\/v1\/download\/([\w-]{1,100})\/([\w-]{1,100})$/.exec(path ?? "");
      if (downloading) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          json(res, 405, { error: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
          return true;
        }
        download(req, res, downloading[1]!, downloading[2]!).catch(fail(res));
        return true;
      }
      const listing = /^\/v1\/files\/([\w-]{1,100})$/.exec(path ?? "");
      const deleting = /^\/v1\/files\/([\w-]{1,100})\/([\w-]{1,100})$/.exec(path ?? "");
      if (listing || deleting) {
        const method = listing ? "GET" : "DELETE";
        if (req.method !== method) {
          json(res, 405, { error: "method_not_allowed", message: `Use ${method}.` }, { allow: method });
          return true;
        }
        (listing ? listFiles(req, res, listing[1]!) : deleteFile(req, res, deleting![1]!, deleting![2]!)).catch(
          fail(res),
        );
        return true;
      }
      if (path !== "/v1/exec" && path !== "/v1/upload") return false;
      if (req.method !== "POST") {
        json(res, 405, { error: "method_not_allowed", message: "Use POST." }, { allow: "POST" });
        return true;
      }
      (path === "/v1/upload" ? upload(req, res) : exec(req, res)).catch(fail(res));
      return true;
    },
    close: () => options.executor.close(),
  };
}
