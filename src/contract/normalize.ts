import * as v from "valibot";
import {
  executeCodeProgressSchema,
  type ExecuteCodeProgress,
  type ExecuteCodeResult,
  type NormalizedExecuteCodeResult,
} from "./result.js";
import { sandboxResponseSchema, sandboxTimedOut, sandboxTruncation, type SandboxResponse } from "./sandbox-response.js";
import { truncationOf } from "./truncate.js";

const truncationFromSandbox = (response: SandboxResponse) => {
  const cuts = sandboxTruncation(response);
  return truncationOf(cuts.stdout, cuts.stderr);
};

const NO_TRUNCATION = { stdout: 0, stderr: 0 } as const;
const count = v.pipe(v.number(), v.minValue(0));
const optionalText = v.nullish(v.string());

/** `{ stdout, stderr, exitCode, wallTimeMs }` or `{ timedOut: true }`, as hand-written server tools return. */
const plainShape = v.pipe(
  v.object({
    stdout: optionalText,
    stderr: optionalText,
    exitCode: v.nullish(v.pipe(v.number(), v.integer())),
    signal: v.nullish(v.string()),
    wallTimeMs: v.nullish(count),
    timedOut: v.optional(v.boolean()),
    timeoutMs: v.nullish(count),
  }),
  v.check((p) => p.exitCode !== undefined || p.timedOut !== undefined, "needs exitCode or timedOut"),
);

/** `{ error: "…" }` (what AI SDK runtimes put in place of a failed or denied call) or `{ error: { message } }`. */
const errorShape = v.object({
  error: v.union([v.string(), v.object({ message: v.string(), code: v.optional(v.string()) })]),
});

/** MCP-style `{ content: [{ type: "text", text }] }`. */
const mcpTextShape = v.object({
  content: v.array(v.object({ type: v.string(), text: v.optional(v.string()) })),
});

const TEXT_RESULT = /^\s*stdout:\r?\n([\s\S]*?)\r?\nstderr:\r?\n([\s\S]*?)(?:\r?\nexit code: (-?\d+))?\s*$/i;

function fromText(text: string): ExecuteCodeResult | null {
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

  const own = v.safeParse(executeCodeProgressSchema, value);
  if (own.success) return own.output;

  const sandbox = v.safeParse(sandboxResponseSchema, value);
  if (sandbox.success) {
    const s = sandbox.output;
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

  const plain = v.safeParse(plainShape, value);
  if (plain.success) {
    const p = plain.output;
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

  const error = v.safeParse(errorShape, value);
  if (error.success) {
    const e = error.output.error;
    return typeof e === "string"
      ? { status: "error", code: "tool_error", message: e }
      : { status: "error", code: e.code ?? "tool_error", message: e.message };
  }

  const mcp = v.safeParse(mcpTextShape, value);
  if (mcp.success) {
    const text = mcp.output.content
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
 * as `{ status: "unrecognised", raw }` so that nothing is lost.
 */
export function normalizeExecuteCodeResult(value: unknown): NormalizedExecuteCodeResult {
  return normalizeValue(value, 0) ?? { status: "unrecognised", raw: value };
}
