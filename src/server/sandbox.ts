import type { ExecuteCodeRunningResult } from "../contract/index.js";
import {
  isSandboxStream,
  postToSandbox,
  readSandboxResponse,
  type OutputLimits,
  type SandboxFileRef,
  type SandboxOutcome,
} from "./sandbox-client.js";
import type { HeldFile, HeldFileOwner } from "./run-file-holder.js";
import type { SandboxFiles } from "./sandbox-files.js";
import { readSandboxStream } from "./sandbox-stream.js";
import { toTokenMinter, type TokenMinter, type TokenMinterOptions } from "./token.js";

/** One program for a sandbox to run, and for whom. */
export interface SandboxRunRequest {
  code: string;
  /** Kept files to put in the run's working directory first. */
  files: SandboxFileRef[];
  participantId: string;
  tenantId: string;
  /** The chat the run belongs to, where the tool knows it: a sandbox may keep state per chat. */
  chatId?: string;
  /** Where the request came from, where the host knows it (`ExecuteCodeToolOptions.clientId`). */
  clientId?: string;
  /**
   * The model asked for a fresh Python session: a sandbox that keeps the
   * chat's session drops it first, and says so (`restarted`) in the result.
   */
  restart?: boolean;
  /** The tool's limit for the run itself, in ms (a sandbox may have a shorter one of its own). */
  timeoutMs: number;
  /** Characters of stdout and stderr kept; the rest is counted. */
  limits: OutputLimits;
  /** Stop, or the tool's limits: the run ends, its process with it. */
  signal: AbortSignal;
}

/** What a sandbox says of a run as it goes: waiting, started, output so far, and its outcome last. */
export type SandboxEvent =
  | { kind: "queued" }
  /** The program started; the sandbox may say how long it lets it run. */
  | { kind: "started"; timeLimitMs?: number }
  | { kind: "output"; progress: ExecuteCodeRunningResult }
  | { kind: "done"; outcome: SandboxOutcome };

/**
 * Where `execute_code` runs a program: a codeapi service (`codeapiSandbox`)
 * or Jupyter kernels (`createJupyterSandbox`). Whichever it is, the result
 * is the same kind: the card cannot tell them apart. A network failure
 * may throw; the tool turns it into a result.
 */
export interface Sandbox {
  /** Its kind, for logs and health: "codeapi", "jupyter". */
  readonly kind: string;
  /** Whether a chat's runs share one Python session (what the tool tells the model). */
  readonly keepsVariables?: boolean;
  /** Whether it gives a run the chat's files and keeps what runs write (what the tool tells the model). @default true */
  readonly keepsFiles?: boolean;
  /**
   * The packages besides the standard library a program may import, where
   * the sandbox knows them (null: not known yet); the tool's own `packages`
   * come first.
   */
  readonly packages?: readonly string[] | null;
  /**
   * The folder a program runs in, where it finds its files and where what it
   * writes is kept, when the sandbox names one (what the tool tells the model).
   */
  readonly workDir?: string;
  run(request: SandboxRunRequest): AsyncIterable<SandboxEvent>;
  /**
   * A run's file for its owner, where this sandbox holds its runs' files
   * itself (`createRunFileRoute({ sandbox })` serves them); null for anyone
   * else's, or one that expired.
   */
  readFile?(owner: HeldFileOwner, ref: { sessionId: string; fileId: string }): Promise<HeldFile | null>;
  /**
   * The students' uploads, where this sandbox holds them itself: the upload
   * route's `sandboxFiles` and the chat endpoints' `attachments`.
   */
  studentFiles?(tenantId: string): SandboxFiles;
}

export interface CodeapiSandboxOptions {
  /** Base URL of the service; programs go to `POST /v1/exec` under it. */
  url: string;
  /** How to sign each run's token: key options, or a minter of your own. */
  signing: TokenMinterOptions | TokenMinter;
  fetch?: typeof fetch;
}

/** A codeapi service: a signed `POST /v1/exec` per run, its output streamed back where the service streams. */
export function codeapiSandbox(options: CodeapiSandboxOptions): Sandbox {
  const minter = toTokenMinter(options.signing);
  return {
    kind: "codeapi",
    // codeapi's, and the kit's sandbox's: the path LibreChat's tool and ChatGPT's code interpreter tell models.
    workDir: "/mnt/data",
    async *run(request) {
      const token = await minter.mint({
        participantId: request.participantId,
        tenantId: request.tenantId,
        ...(request.clientId ? { clientId: request.clientId } : {}),
      });
      const response = await postToSandbox({
        url: options.url,
        token,
        code: request.code,
        signal: request.signal,
        fetch: options.fetch,
        ...(request.files.length ? { files: request.files } : {}),
      });
      if (isSandboxStream(response)) yield* readSandboxStream(response, request.limits);
      else yield { kind: "done", outcome: await readSandboxResponse(response, request.limits) };
    },
  };
}
