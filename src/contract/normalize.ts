import type { ExecuteCodeProgress, ExecuteCodeResult, NormalizedExecuteCodeResult } from "./result.js";
import {
  arrayOf,
  atLeast,
  isBoolean,
  isExecuteCodeProgress,
  isInteger,
  isSandboxResponse,
  isString,
  nullish,
  objectOf,
  optional,
} from "./result-guards.js";
import { sandboxTimedOut, sandboxTruncation } from "./sandbox-answer.js";
import type { SandboxResponse } from "./sandbox-response.js";
import { truncationOf } from "./truncate.js";

const truncationFromSandbox = (response: SandboxResponse) => {
  const cuts = sandboxTruncation(response);
  return truncationOf(cuts.stdout, cuts.stderr);
};

const NO_TRUNCATION = { stdout: 0, stderr: 0 } as const;
const optionalText = nullish(isString);
const count = nullish(atLeast(0));

/** `{ stdout, stderr, exitCode, wallTimeMs }` or `{ timedOut: true }`, as hand-written server tools return. */
interface PlainShape {
  stdout?: string | null;
  stderr?: string | null;
  exitCode?: number | null;
  signal?: string | null;
  wallTimeMs?: number | null;
  timedOut?: boolean;
  timeoutMs?: number | null;
}
const isPlainShape = objectOf({
  stdout: optionalText,
  stderr: optionalText,
  exitCode: nullish(isInteger),
  signal: optionalText,
  wallTimeMs: count,
  timedOut: optional(isBoolean),
  timeoutMs: count,
}) as (value: unknown) => value is PlainShape;

/** `{ error: "…" }` (what AI SDK runtimes put in place of a failed or denied call) or `{ error: { message } }`. */
const isErrorShape = objectOf({
  error: (error) => isString(error) || objectOf({ message: isString, code: optional(isString) })(error),
}) as (value: unknown) => value is { error: string | { message: string; code?: string } };

/** MCP-style `{ content: [{ type: "text", text }] }`. */
const isMcpText = objectOf({
  content: arrayOf(objectOf({ type: isString, text: optional(isString) })),
}) as (value: unknown) => value is { content: { type: string; text?: string }[] };

const TEXT_RESULT = /^\s*stdout:\r?\n([\s\S]*?)\r?\nstderr:\r?\n([\s\S]*?)(?:\r?\nexit code: (-?\d+))?\s*$/i;

const STDERR_MARK = /\r?\nstderr:\r?\n/g;

function fromText(text: string): ExecuteCodeResult | null {
  // Output that holds a "stderr:" line of its own makes the split ambiguous: shown as it came, not split wrongly.
  if ((text.match(STDERR_MARK)?.length ?? 0) > 1) return null;
  const match = TEXT_RESULT.exec(text);
  if (!match) return null;
  return {
    status: "completed",
    stdout: match[1] ?? "",
    stderr: match[2] ?? "",
    exitCode: match[3] === undefined ? null : Number(match[3]),
    signal: null,
    wallTimeMs: null,
    truncated: { ...NO_TRUNCATION },
  };
}

function parseJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function normalizeValue(value: unknown, depth: number): ExecuteCodeProgress | null {
  if (depth > 3 || value === null || value === undefined) return null;

  if (typeof value === "string") {
    const json = parseJsonObject(value);
    return json === undefined ? fromText(value) : normalizeValue(json, depth + 1);
  }
  if (typeof value !== "object") return null;

  if (isExecuteCodeProgress(value)) return value;

  if (isSandboxResponse(value)) {
    const s = value;
    const wallTimeMs = s.wall_time ?? null;
    if (sandboxTimedOut(s)) {
      return {
        status: "timeout",
        timeoutMs: s.time_limit_ms ?? null,
        stdout: s.stdout,
        stderr: s.stderr,
        wallTimeMs,
        truncated: truncationFromSandbox(s),
      };
    }
    return {
      status: "completed",
      stdout: s.stdout,
      stderr: s.stderr,
      exitCode: s.code,
      signal: s.signal ?? null,
      wallTimeMs,
      truncated: truncationFromSandbox(s),
    };
  }

  if (isPlainShape(value) && (value.exitCode !== undefined || value.timedOut !== undefined)) {
    const p = value;
    if (p.timedOut) {
      return {
        status: "timeout",
        timeoutMs: p.timeoutMs ?? null,
        stdout: p.stdout ?? "",
        stderr: p.stderr ?? "",
        wallTimeMs: p.wallTimeMs ?? null,
        truncated: { ...NO_TRUNCATION },
      };
    }
    return {
      status: "completed",
      stdout: p.stdout ?? "",
      stderr: p.stderr ?? "",
      exitCode: p.exitCode ?? null,
      signal: p.signal ?? null,
      wallTimeMs: p.wallTimeMs ?? null,
      truncated: { ...NO_TRUNCATION },
    };
  }

  if (isErrorShape(value)) {
    const e = value.error;
    return typeof e === "string"
      ? { status: "error", code: "tool_error", message: e }
      : { status: "error", code: e.code ?? "tool_error", message: e.message };
  }

  if (isMcpText(value)) {
    const text = value.content
      .filter((part) => part.type === "text" && part.text !== undefined)
      .map((part) => part.text)
      .join("\n");
    return text ? normalizeValue(text, depth + 1) : null;
  }

  return null;
}

/**
 * Turns any result seen in the wild into the kit's result type. Accepts the
 * kit's own shape, the plain `{ stdout, stderr, exitCode, wallTimeMs }` /
 * `{ timedOut: true }` shape, the sandbox's flat `{ stdout, stderr, code,
 * signal, wall_time }` response, `stdout:\n…\nstderr:\n…` text, `{ error }`,
 * MCP text content and JSON strings of any of these. Anything else is returned
 * as `{ status: "unrecognised", raw }` so that nothing is lost. A result in
 * the kit's own shape comes back as it is, the same object.
 */
export function normalizeExecuteCodeResult(value: unknown): NormalizedExecuteCodeResult {
  return normalizeValue(value, 0) ?? { status: "unrecognised", raw: value };
}
