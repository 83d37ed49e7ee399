import type { ExecuteCodeResult, ExecuteCodeRunningResult } from "../contract/index.js";
import { type CappedText, truncationOf } from "../contract/truncate.js";
import type { HeldFile, HeldFileOwner } from "./files/run-file-holder.js";
import type { SandboxFiles } from "./files/sandbox-files.js";

/** A kept file a run is given, as codeapi's `files` on exec name it. */
export interface SandboxFileRef {
  id: string;
  session_id: string;
  name: string;
}

export interface OutputLimits {
  stdout: number;
  stderr: number;
}

/** What came back from one call, before it is turned into the kit's result. */
export type SandboxOutcome = { ok: true; result: ExecuteCodeResult } | { ok: false; result: ExecuteCodeResult };

/** A run that did not happen or did not finish, with a code and words the model can explain. */
export const sandboxError = (code: string, message: string): SandboxOutcome => ({
  ok: false,
  result: { status: "error", code, message },
});

/** A run that never started because the sandbox had no room, with when to try again if known. */
export const sandboxBusy = (message: string, retryAfterMs: number | null = null): SandboxOutcome => ({
  ok: false,
  result: { status: "busy", retryAfterMs, message },
});

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

/** The output so far, within its caps, as the event a sandbox tells while the program runs. */
export const outputSoFar = (stdout: CappedText, stderr: CappedText): SandboxEvent => ({
  kind: "output",
  progress: {
    status: "running",
    stdout: stdout.text,
    stderr: stderr.text,
    truncated: truncationOf(stdout.kept(), stderr.kept()),
  },
});
