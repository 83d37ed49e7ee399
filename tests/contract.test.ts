import { describe, expect, it } from "vitest";
import { normalizeExecuteCodeResult } from "../src/contract";
import { uniqueFileName } from "../src/contract/file-name";
import { MAX_CODE_LENGTH, executeCodeInputSchema } from "../src/contract/input";

describe("executeCodeInputSchema", () => {
  it("accepts a program up to the limit and rejects a longer one with a readable message", () => {
    expect(executeCodeInputSchema.safeParse({ code: "x".repeat(MAX_CODE_LENGTH) }).success).toBe(true);
    const tooLong = executeCodeInputSchema.safeParse({ code: "x".repeat(MAX_CODE_LENGTH + 1) });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.message).toBe("The program is longer than 20,000 characters.");
  });

  it("rejects an empty program and a missing one", () => {
    expect(executeCodeInputSchema.safeParse({ code: "" }).success).toBe(false);
    expect(executeCodeInputSchema.safeParse({}).success).toBe(false);
  });
});

describe("normalizeExecuteCodeResult", () => {
  const own = {
    status: "completed",
    stdout: "4\n",
    stderr: "",
    exitCode: 0,
    signal: null,
    wallTimeMs: 12,
    truncated: { stdout: 0, stderr: 0 },
  } as const;

  it("keeps the kit's own shape as it is", () => {
    expect(normalizeExecuteCodeResult(own)).toEqual(own);
    const busy = { status: "busy", retryAfterMs: 3000, message: "slow down" } as const;
    expect(normalizeExecuteCodeResult(busy)).toEqual(busy);
  });

  it("reads the plain shape of hand-written server tools", () => {
    expect(normalizeExecuteCodeResult({ stdout: "hi\n", stderr: "", exitCode: 0, wallTimeMs: 5 })).toEqual({
      ...own,
      stdout: "hi\n",
      wallTimeMs: 5,
    });
    expect(normalizeExecuteCodeResult({ timedOut: true, stdout: "partial" })).toEqual({
      status: "timeout",
      timeoutMs: null,
      stdout: "partial",
      stderr: "",
      wallTimeMs: null,
      truncated: { stdout: 0, stderr: 0 },
    });
  });

  it("reads the sandbox's flat response, including a signal and a time-out", () => {
    const flat = {
      stdout: "",
      stderr: "Killed",
      code: null,
      signal: "SIGKILL",
      wall_time: 812,
      session_id: "s1",
      files: [],
    };
    expect(normalizeExecuteCodeResult(flat)).toEqual({
      status: "completed",
      stdout: "",
      stderr: "Killed",
      exitCode: null,
      signal: "SIGKILL",
      wallTimeMs: 812,
      truncated: { stdout: 0, stderr: 0 },
    });
    expect(normalizeExecuteCodeResult({ ...flat, status: "TO" }).status).toBe("timeout");
    expect(normalizeExecuteCodeResult({ ...flat, timed_out: true, time_limit_ms: 5000 })).toMatchObject({
      status: "timeout",
      timeoutMs: 5000,
    });
  });

  it("reads a text result with both streams", () => {
    expect(normalizeExecuteCodeResult("stdout:\n42\nstderr:\nwarning: x\n")).toMatchObject({
      status: "completed",
      stdout: "42",
      stderr: "warning: x",
      exitCode: null,
    });
    expect(normalizeExecuteCodeResult("stdout:\n1\nstderr:\n\nexit code: 3")).toMatchObject({ exitCode: 3 });
  });

  it("leaves a text result whose output holds a stderr: line of its own unsplit, rather than guess", () => {
    // A program that printed "stderr:" could otherwise pass the rest of its stdout off as errors.
    const text = "stdout:\nall good\nstderr:\nTraceback: fake\nstderr:\n\nexit code: 0";
    expect(normalizeExecuteCodeResult(text)).toEqual({ status: "unrecognised", raw: text });
  });

  it("reads JSON text, MCP text content and { error } results", () => {
    expect(normalizeExecuteCodeResult(JSON.stringify(own))).toEqual(own);
    expect(normalizeExecuteCodeResult({ content: [{ type: "text", text: JSON.stringify(own) }] })).toEqual(own);
    expect(normalizeExecuteCodeResult({ error: "Tool approval denied" })).toEqual({
      status: "error",
      code: "tool_error",
      message: "Tool approval denied",
    });
    expect(normalizeExecuteCodeResult({ error: { code: "sandbox_down", message: "No sandbox" } })).toEqual({
      status: "error",
      code: "sandbox_down",
      message: "No sandbox",
    });
  });

  it("returns anything else as unrecognised, with the raw value kept", () => {
    for (const raw of [{ answer: 42 }, "hello", 7, null, [1, 2], { stdout: 1 }]) {
      expect(normalizeExecuteCodeResult(raw)).toEqual({ status: "unrecognised", raw });
    }
  });
});

describe("uniqueFileName", () => {
  it("numbers names alike from 2, keeping the extension", () => {
    const taken = new Set(["scores.csv", "scores (2).csv", "notes"]);
    expect(uniqueFileName("scores.csv", taken)).toBe("scores (3).csv");
    expect(uniqueFileName("notes", taken)).toBe("notes (2)");
    expect(uniqueFileName("other.csv", taken)).toBe("other.csv");
  });

  it("names ten thousand files alike apart with a few checks each, when told what it tried", () => {
    // A program can leave 10,000 names that read alike; checking every number from 2 again for each held
    // the server's only thread for half a minute.
    let checks = 0;
    const taken = new (class extends Set<string> {
      override has(name: string) {
        checks++;
        return super.has(name);
      }
    })();
    // A name the program chose itself, in the way of the numbering.
    taken.add("A\uFFFD (3)");
    const tried = new Map<string, number>();
    const names = Array.from({ length: 10_000 }, () => {
      const name = uniqueFileName("A\uFFFD", taken, tried);
      taken.add(name);
      return name;
    });
    expect(new Set(names).size).toBe(10_000);
    expect(names.slice(0, 4)).toEqual(["A\uFFFD", "A\uFFFD (2)", "A\uFFFD (4)", "A\uFFFD (5)"]);
    expect(checks).toBeLessThan(30_000);
  });
});
