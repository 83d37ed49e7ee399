import * as z from "zod/mini";
import {
  executeCodeResultSchema,
  type ExecuteCodeResult,
  type NormalizedExecuteCodeResult,
} from "./result";
import { sandboxResponseSchema, sandboxTimedOut } from "./sandbox-response";

const NO_TRUNCATION = { stdout: 0, stderr: 0 } as const;
const count = z.number().check(z.nonnegative());
const optionalText = z.nullish(z.string());

/** `{ stdout, stderr, exitCode, wallTimeMs }` or `{ timedOut: true }`, as hand-written server tools return. */
const plainShape = z
  .object({
    stdout: optionalText,
    stderr: optionalText,
    exitCode: z.nullish(z.int()),
    signal: z.nullish(z.string()),
    wallTimeMs: z.nullish(count),
    timedOut: z.optional(z.boolean()),
    timeoutMs: z.nullish(count),
  })
  .check(z.refine((v) => v.exitCode !== undefined || v.timedOut !== undefined, "needs exitCode or timedOut"));

/** `{ error: "…" }` (what AI SDK runtimes put in place of a failed or denied call) or `{ error: { message } }`. */
const errorShape = z.object({
  error: z.union([
    z.string(),
    z.object({ message: z.string(), code: z.optional(z.string()) }),
  ]),
});

/** MCP-style `{ content: [{ type: "text", text }] }`. */
const mcpTextShape = z.object({
  content: z.array(z.object({ type: z.string(), text: z.optional(z.string()) })),
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

function normalizeValue(value: unknown, depth: number): ExecuteCodeResult | null {
  if (depth > 3 || value === null || value === undefined) return null;

  if (typeof value === "string") {
    const json = parseJsonObject(value);
    return json === undefined ? fromText(value) : normalizeValue(json, depth + 1);
  }
  if (typeof value !== "object") return null;

  const own = executeCodeResultSchema.safeParse(value);
  if (own.success) return own.data;

  const sandbox = sandboxResponseSchema.safeParse(value);
  if (sandbox.success) {
    const s = sandbox.data;
    const wallTimeMs = s.wall_time ?? null;
    if (sandboxTimedOut(s)) {
      return {
        status: "timeout",
        timeoutMs: s.time_limit_ms ?? null,
        stdout: s.stdout,
        stderr: s.stderr,
        wallTimeMs,
        truncated: { ...NO_TRUNCATION },
      };
    }
    return {
      status: "completed",
      stdout: s.stdout,
      stderr: s.stderr,
      exitCode: s.code,
      signal: s.signal ?? null,
      wallTimeMs,
      truncated: { ...NO_TRUNCATION },
    };
  }

  const plain = plainShape.safeParse(value);
  if (plain.success) {
    const p = plain.data;
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

  const error = errorShape.safeParse(value);
  if (error.success) {
    const e = error.data.error;
    return typeof e === "string"
      ? { status: "error", code: "tool_error", message: e }
      : { status: "error", code: e.code ?? "tool_error", message: e.message };
  }

  const mcp = mcpTextShape.safeParse(value);
  if (mcp.success) {
    const text = mcp.data.content
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
