import { tool, type ToolSet, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApprovalExpiry, expiredApprovalResult, gateCodeExecution, type GateOptions } from "../../src/server";
import { toldExpired } from "../../src/server/tool/approval-expiry";

const make = (needsApproval?: boolean | (() => boolean)) =>
  tool({
    inputSchema: z.object({}),
    execute: async () => "ok",
    ...(needsApproval === undefined ? {} : { needsApproval }),
  });

const tools = (): ToolSet => ({
  execute_code: make(),
  python: make(),
  terminal: make(),
  search: make(),
  weather: make(),
});

const gated = (options: GateOptions, set = tools()) =>
  Object.entries(gateCodeExecution(set, options))
    .filter(([, t]) => t.needsApproval === true)
    .map(([name]) => name)
    .sort();

describe("gateCodeExecution: the policy matrix", () => {
  it("asks for nothing by default", () => {
    expect(gated({})).toEqual([]);
  });

  it("with confirmCodeExecution, gates only the code-execution tools", () => {
    expect(gated({ confirmCodeExecution: true })).toEqual(["execute_code", "python", "terminal"]);
  });

  it("with confirmAllTools, gates every tool", () => {
    expect(gated({ confirmAllTools: true })).toEqual(["execute_code", "python", "search", "terminal", "weather"]);
    expect(gated({ confirmAllTools: true, confirmCodeExecution: true })).toHaveLength(5);
  });

  it("bypassPermissions wins over both flags", () => {
    expect(gated({ bypassPermissions: true, confirmCodeExecution: true })).toEqual([]);
    expect(gated({ bypassPermissions: true, confirmAllTools: true })).toEqual([]);
  });

  it("takes custom code-execution names", () => {
    expect(gated({ confirmCodeExecution: true, codeExecutionToolNames: ["search"] })).toEqual(["search"]);
  });

  it("leaves other tools untouched, their own needsApproval included", () => {
    const own = () => true;
    const set = { ...tools(), weather: make(own), search: make(true) };
    const result = gateCodeExecution(set, { confirmCodeExecution: true });
    expect(result.weather).toBe(set.weather);
    expect(result.weather!.needsApproval).toBe(own);
    expect(result.search!.needsApproval).toBe(true);
  });

  it("keeps a tool's own stricter policy under bypass, and gating never loosens one", () => {
    const set = { ...tools(), search: make(true) };
    expect(gateCodeExecution(set, { bypassPermissions: true }).search!.needsApproval).toBe(true);
    expect(
      gateCodeExecution({ execute_code: make(() => false) }, { confirmCodeExecution: true }).execute_code!
        .needsApproval,
    ).toBe(true);
  });

  it("does not change the tool set it was given", () => {
    const set = tools();
    gateCodeExecution(set, { confirmAllTools: true });
    expect(set.execute_code!.needsApproval).toBeUndefined();
  });
});

describe("createApprovalExpiry", () => {
  const answered = (id: string, approved: boolean): UIMessage =>
    ({
      id: "m1",
      role: "assistant" as const,
      parts: [
        {
          type: "tool-execute_code",
          toolCallId: "c",
          state: "approval-responded",
          input: { code: "1" },
          approval: { id, approved },
        },
      ],
    }) as UIMessage;
  const approvalOf = ({ messages }: { messages: UIMessage[] }) =>
    (messages[0]!.parts[0] as { approval: unknown }).approval;

  it("lets an answer within the time limit through, once", () => {
    let time = 0;
    const expiry = createApprovalExpiry({ ttlMs: 1000, now: () => time });
    expiry.recordRequest("a1");
    time = 900;
    expect(approvalOf(expiry.expireStale([answered("a1", true)]))).toEqual({ id: "a1", approved: true });
    // The same approval sent again cannot run the code a second time.
    expect(approvalOf(expiry.expireStale([answered("a1", true)]))).toEqual({
      id: "a1",
      approved: false,
      reason: "expired",
    });
  });

  it("denies an answer that comes too late, with the reason expired", () => {
    let time = 0;
    const expiry = createApprovalExpiry({ ttlMs: 1000, now: () => time });
    expiry.recordRequest("a1");
    time = 1001;
    const checked = expiry.expireStale([answered("a1", true)]);
    expect(approvalOf(checked)).toEqual({ id: "a1", approved: false, reason: "expired" });
    expect([...checked.expiredToolCallIds]).toEqual(["c"]);
  });

  it("denies an approval for a request this server never made", () => {
    const expiry = createApprovalExpiry();
    expect(approvalOf(expiry.expireStale([answered("forged", true)]))).toMatchObject({
      approved: false,
      reason: "expired",
    });
  });

  it("leaves denials and other messages as they are", () => {
    const expiry = createApprovalExpiry();
    const denied = [answered("a1", false)];
    const checked = expiry.expireStale(denied);
    expect(checked.messages[0]).toBe(denied[0]);
    expect(checked.expiredToolCallIds.size).toBe(0);
  });

  it("records the requests of a finished message", () => {
    const expiry = createApprovalExpiry({ ttlMs: 1000 });
    expiry.recordRequests({
      id: "m",
      role: "assistant",
      parts: [
        { type: "tool-execute_code", toolCallId: "c", state: "approval-requested", input: {}, approval: { id: "a9" } },
      ],
    } as never);
    expect(approvalOf(expiry.expireStale([answered("a9", true)]))).toEqual({ id: "a9", approved: true });
  });
});

describe("toldExpired: the stream to the browser", () => {
  it("turns the denial of an expired call into the expired result, and leaves every other chunk", () => {
    const expired = new Set(["late"]);
    expect(toldExpired({ type: "tool-output-denied", toolCallId: "late" }, expired)).toEqual({
      type: "tool-output-available",
      toolCallId: "late",
      output: expiredApprovalResult,
    });
    const refused = { type: "tool-output-denied", toolCallId: "refused" } as const;
    expect(toldExpired(refused, expired)).toBe(refused);
    const text = { type: "text-delta", id: "t", delta: "late" } as const;
    expect(toldExpired(text, expired)).toBe(text);
  });
});
