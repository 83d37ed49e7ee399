import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { executeCodeProgressSchema } from "../src/contract/result";
import { isExecuteCodeProgress, isSandboxResponse } from "../src/contract/result-guards";
import { sandboxResponseSchema } from "../src/contract/sandbox-response";

// The card checks results with result-guards.ts, the server with the valibot
// schemas: a result one accepts and the other refuses would show differently
// from what the model was told. Every valid result below, and every change of
// one of its values (or the value's removal) to each probe, must get the same
// answer from both.

const file = {
  name: "out/squares.png",
  mediaType: "image/png",
  size: 2048,
  kind: "image",
  alt: "Squares",
  width: 640,
  height: 480,
  ref: { sessionId: "s", fileId: "f" },
};
const truncated = { stdout: 10, stderr: 0, at: { stdout: 4, stderr: 0 }, lines: { stdout: 2 } };
const afterRun = {
  files: [file, { ...file, kind: "file", name: "a.csv", mediaType: "text/csv" }],
  filesCut: 1,
  filesUsed: ["scores.csv"],
  filesGone: ["old.csv"],
  filesRemoved: ["tmp.csv"],
  continued: true,
  restarted: false,
  startedAt: 1_700_000_000_000,
};

const ownResults: Record<string, unknown>[] = [
  {
    status: "completed",
    stdout: "hi\n",
    stderr: "",
    exitCode: 0,
    signal: null,
    wallTimeMs: 12.5,
    truncated,
    ...afterRun,
  },
  {
    status: "completed",
    stdout: "",
    stderr: "",
    exitCode: null,
    signal: "SIGKILL",
    wallTimeMs: null,
    truncated: { stdout: 0, stderr: 0 },
  },
  {
    status: "completed",
    stdout: "",
    stderr: "Traceback…",
    exitCode: 1,
    signal: null,
    wallTimeMs: 3,
    truncated: { stdout: 0, stderr: 0 },
    failure: {
      type: "ZeroDivisionError",
      message: "division by zero",
      function: "mean",
      line: 2,
      endLine: 2,
      column: 11,
      endColumn: 36,
      values: [{ name: "values", value: "[]", type: "list", length: 0, shape: [0] }],
      frames: [
        { file: "/usr/lib/python3.11/json/decoder.py", line: 337, function: "decode", own: false, module: "json" },
      ],
      explanation: { kind: "index", name: "xs", text: "i", suggestion: "x", count: 3, index: -4, names: ["a"] },
    },
  },
  { status: "timeout", timeoutMs: 5000, stdout: "a", stderr: "b", wallTimeMs: 5001, truncated, ...afterRun },
  { status: "running", stdout: "a", stderr: "", truncated, timeoutMs: 5000, startedAt: 1, starting: true },
  { status: "busy", retryAfterMs: 2000, message: "busy" },
  { status: "error", code: "sandbox_unavailable", message: "down" },
];

const sandboxAnswers: Record<string, unknown>[] = [
  {
    stdout: "x",
    stderr: "",
    code: 0,
    signal: null,
    wall_time: 3,
    session_id: "s",
    files: [{ id: "f" }],
    files_cut: 0,
    files_read: ["a.csv"],
    files_removed: [],
    files_missing: [{ name: "gone.csv" }, {}],
    timed_out: false,
    time_limit_ms: 5000,
    status: "OK",
    stdout_truncated: 5,
    stderr_truncated: 0,
    stdout_truncated_at: 2,
    stderr_truncated_at: null,
    stdout_truncated_lines: 1,
    stderr_truncated_lines: 0,
  },
  { stdout: "", stderr: "boom", code: null, failure: { type: "ValueError" } },
];

const PROBES: unknown[] = [
  undefined,
  null,
  "",
  ".",
  "..",
  "completed",
  "image",
  0,
  -1,
  1.5,
  100_001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  ["x"],
  [1],
  {},
  { stdout: 1 },
  // Past every length the facts of a failure may have.
  "x".repeat(1000),
  Array.from({ length: 60 }, () => 1),
];

type Path = (string | number)[];

/** Every path to a value inside `value`, the value itself first. */
function paths(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [at];
  if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value))
      found.push(...paths(inner, [...at, Array.isArray(value) ? Number(key) : key]));
  return found;
}

/** `value` with the value at `path` set to `probe`, or removed when `remove` is true. */
function changed(value: unknown, path: Path, probe: unknown, remove = false): unknown {
  if (path.length === 0) return probe;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path as [string | number, ...Path];
  if (rest.length === 0 && remove) delete copy[head];
  else copy[head] = changed(copy[head], rest, probe, remove);
  return copy;
}

function variations(valid: unknown): unknown[] {
  const out: unknown[] = [valid];
  for (const path of paths(valid)) {
    if (path.length > 0) out.push(changed(valid, path, undefined, true));
    for (const probe of PROBES) out.push(changed(valid, path, probe));
  }
  return out;
}

/** How often the schema and the check accept and refuse the variations, and where they disagree (the first few). */
function compare(valid: unknown[], schema: v.GenericSchema, check: (value: unknown) => boolean) {
  let accepted = 0;
  let refused = 0;
  const disagreements: { value: unknown; schema: boolean }[] = [];
  for (const value of valid.flatMap(variations)) {
    const bySchema = v.is(schema, value);
    if (bySchema) accepted++;
    else refused++;
    if (check(value) !== bySchema && disagreements.length < 3) disagreements.push({ value, schema: bySchema });
  }
  return { accepted, refused, disagreements };
}

describe("the card's result checks", () => {
  it("accept exactly the results the kit's schema accepts", () => {
    const { accepted, refused, disagreements } = compare(ownResults, executeCodeProgressSchema, isExecuteCodeProgress);
    expect(disagreements).toEqual([]);
    // Both sides of the line were tried, many times over.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(500);
  });

  it("accept exactly the sandbox answers the sandbox's schema accepts", () => {
    const { accepted, refused, disagreements } = compare(sandboxAnswers, sandboxResponseSchema, isSandboxResponse);
    expect(disagreements).toEqual([]);
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(100);
  });

  it("refuse a status that only an object's prototype has", () => {
    const inherited = Object.create({ status: "error" }) as Record<string, unknown>;
    Object.assign(inherited, { code: "x", message: "y" });
    expect(isExecuteCodeProgress(inherited)).toBe(v.is(executeCodeProgressSchema, inherited));
    expect(isExecuteCodeProgress({ status: "toString", message: "x" })).toBe(false);
    expect(isExecuteCodeProgress({ status: "__proto__" })).toBe(false);
  });
});
