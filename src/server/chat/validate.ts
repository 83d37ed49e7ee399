// Over 300 lines: every check of what a client sends the chat endpoints
// (limits, bodies, tool specs, tool results) with the error it answers, in
// one place so that each endpoint refuses the same input the same way.

import * as v from "valibot";
import { z } from "zod";
import { DEFAULT_MAX_STDERR_CHARS, DEFAULT_MAX_STDOUT_CHARS } from "../../contract/limits.js";
import { executeCodeResultSchema } from "../../contract/result.js";
import type { AcceptedResult, ApprovalAnswer, PendingApproval, PendingCall } from "./calls.js";
import type { DynamicToolSpec } from "./store.js";
import { HttpRefusal } from "../http/http.js";
import { errorMessage } from "../../contract/error-message.js";

const invalid = (message: string, details?: Record<string, unknown>) =>
  new HttpRefusal(400, "invalid_request", message, details);

export interface ChatLimits {
  /**
   * Bytes of one request body.
   * @default 2 MiB
   */
  maxBodyBytes: number;
  /**
   * Characters of one user message.
   * @default 100 000
   */
  maxMessageChars: number;
  /**
   * Tools a client may declare for one chat.
   * @default 16
   */
  maxDynamicTools: number;
  /**
   * Characters of one tool's description.
   * @default 2 000
   */
  maxToolDescriptionChars: number;
  /**
   * Bytes of one tool's JSON schemas.
   * @default 16 KiB
   */
  maxToolSchemaBytes: number;
  /**
   * Bytes of one tool result as JSON.
   * @default 64 KiB
   */
  maxToolOutputBytes: number;
  /**
   * Characters of an error result's text.
   * @default 4 000
   */
  maxErrorTextChars: number;
  /**
   * Characters of a denial's reason.
   * @default 1 000
   */
  maxReasonChars: number;
  /**
   * Chats one participant keeps; past it a new chat is refused (429) until they delete one.
   * @default 200
   */
  maxChatsPerParticipant: number;
  /**
   * Messages a participant sends in one chat; past it the chat is full (413) and a new chat goes on.
   * @default 200
   */
  maxUserMessagesPerChat: number;
  /**
   * Bytes all of one participant's chats may take in the store; past it a new chat or message is refused (413) until they delete some.
   * @default 50 MiB
   */
  maxStoredBytesPerParticipant: number;
  /**
   * Bytes all participants' chats may take in the store together (with a
   * store that can say: SQLite counts its pages in use, PostgreSQL the chats'
   * JSON); past it a new chat or message is refused (507 `store_full`) for
   * everyone until chats are deleted or expire. Nothing stored is lost.
   * @default no bound (size your database; the harness sets 2 GiB)
   */
  maxStoredBytes: number;
  /**
   * Files a student attaches to one message.
   * @default 5
   */
  maxFilesPerMessage: number;
  /**
   * Bytes of the files a student attaches to one chat, all together; past it a message with more is refused (413).
   * @default 20 MiB
   */
  maxFileBytesPerChat: number;
}

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  maxBodyBytes: 2 * 1024 * 1024,
  maxMessageChars: 100_000,
  maxDynamicTools: 16,
  maxToolDescriptionChars: 2_000,
  maxToolSchemaBytes: 16 * 1024,
  maxToolOutputBytes: 64 * 1024,
  maxErrorTextChars: 4_000,
  maxReasonChars: 1_000,
  maxChatsPerParticipant: 200,
  maxUserMessagesPerChat: 200,
  maxStoredBytesPerParticipant: 50 * 1024 * 1024,
  maxStoredBytes: Number.POSITIVE_INFINITY,
  maxFilesPerMessage: 5,
  maxFileBytesPerChat: 20 * 1024 * 1024,
};

/**
 * What a result of one tool must be. Returns the result as it will be
 * stored (for example with unknown fields dropped), or throws a message
 * saying what is wrong.
 */
export type ToolResultContract = (output: unknown) => unknown;

/** The kit's `ExecuteCodeResult`, with stdout and stderr within the server tool's own caps. */
export function executeCodeResultContract(
  limits: { maxStdoutChars?: number; maxStderrChars?: number } = {},
): ToolResultContract {
  const maxStdout = limits.maxStdoutChars ?? DEFAULT_MAX_STDOUT_CHARS;
  const maxStderr = limits.maxStderrChars ?? DEFAULT_MAX_STDERR_CHARS;
  return (output) => {
    const parsed = v.safeParse(executeCodeResultSchema, output);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue.path?.map((item) => String(item.key)).join(".") || "the result";
      throw new Error(`it is not an execute_code result (${where}: ${issue.message})`);
    }
    const result = parsed.output;
    if (result.status === "completed" || result.status === "timeout") {
      if (result.stdout.length > maxStdout)
        throw new Error(`stdout is longer than ${maxStdout} characters; cut it and count the cut in truncated.stdout`);
      if (result.stderr.length > maxStderr)
        throw new Error(`stderr is longer than ${maxStderr} characters; cut it and count the cut in truncated.stderr`);
    } else if (result.message.length > 2_000) {
      throw new Error("the message is longer than 2000 characters");
    }
    return result;
  };
}

/** Keywords whose values are data, not subschemas: nothing under them is a regular expression. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);
/** Keywords whose values map names (not keywords) to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** A place in a schema: its key, under its parent's place. */
interface Place {
  key: string;
  parent: Place | null;
}

const pointer = (place: Place | null) => {
  const parts: string[] = [];
  for (let at = place; at; at = at.parent) parts.push(`/${at.key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  return parts.reverse().join("");
};

/**
 * The places (JSON Pointers) in a JSON Schema of the keywords `found` picks,
 * in any subschema, `$defs` included. It errs on the side of finding one:
 * every object that may be a subschema is looked at, whether or not the
 * validator knows its keyword; only values (`enum`, `const`, `default`,
 * `examples`) and the names of properties are not.
 */
function keywordsIn(schema: unknown, found: (key: string, value: unknown) => boolean): string[] {
  const places: string[] = [];
  // A stack, not recursion: a 16 KiB schema can nest thousands deep.
  const stack: { node: unknown; place: Place | null }[] = [{ node: schema, place: null }];
  while (stack.length) {
    const { node, place } = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries())
        stack.push({ node: item, place: { key: String(index), parent: place } });
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      const at: Place = { key, parent: place };
      if (found(key, value)) places.push(pointer(at));
      else if (DATA_KEYWORDS.has(key)) continue;
      else if (SCHEMA_MAP_KEYWORDS.has(key) && value && typeof value === "object") {
        for (const [name, subschema] of Object.entries(value))
          stack.push({ node: subschema, place: { key: name, parent: at } });
      } else stack.push({ node: value, place: at });
    }
  }
  return places.sort();
}

/** Where a JSON Schema asks for a regular expression to be matched (`pattern`, a non-empty `patternProperties`). */
const regexKeywordsIn = (schema: unknown) =>
  keywordsIn(
    schema,
    (key, value) =>
      key === "pattern" ||
      (key === "patternProperties" && (!value || typeof value !== "object" || Object.keys(value).length > 0)),
  );

/** Where a JSON Schema refers to a subschema (`$ref` and its dynamic and recursive kin). */
const referenceKeywordsIn = (schema: unknown) =>
  keywordsIn(schema, (key) => key === "$ref" || key === "$dynamicRef" || key === "$recursiveRef");

/**
 * Why the server will not check results against a schema that asks for a
 * regular expression: the validator (zod's `fromJSONSchema`) matches
 * `pattern` and `patternProperties` with JavaScript's backtracking
 * `RegExp` and takes no other engine, and one crafted pattern and result
 * (`^(a+)+$` against 40 `a`s and a `!`) would hold the server's only
 * thread for a day.
 */
const regexRefusal = (where: string) =>
  `it uses ${where.split("/").at(-1)} at ${where}, and this server matches no regular expression a client sends ` +
  "(a crafted one can stop the server for minutes). Leave pattern and patternProperties out of output_schema " +
  "and check them in the client before it answers; type, format (email, uuid, date-time, …), lengths and " +
  "the other keywords are still checked, and input_schema may keep its patterns (the server never matches them)";

/**
 * Why the server will not check results against a schema with references:
 * a subschema that is `anyOf` two references to the one before it, twenty
 * deep in 1.2 KB, makes the validator try a million branches for one
 * result, and each level doubles it. Written out in full, a schema that
 * branches that much is larger than a chat takes.
 */
const referenceRefusal = (where: string) =>
  `it uses ${where.split("/").at(-1)} at ${where}, and this server checks results against no schema with references ` +
  "(a few nested ones can make one check take hours). Write output_schema out in full, without $ref; " +
  "input_schema may keep its references (the server never checks them)";

/** What, if anything, makes a client's output_schema one the server will not check a result against. */
function uncheckable(schema: unknown): { message: string; details: Record<string, string[]> } | null {
  const regexes = regexKeywordsIn(schema);
  if (regexes.length) return { message: regexRefusal(regexes[0]!), details: { regex_keywords: regexes } };
  const references = referenceKeywordsIn(schema);
  if (references.length)
    return { message: referenceRefusal(references[0]!), details: { reference_keywords: references } };
  return null;
}

/** A private registry: zod would otherwise keep every schema's `id` in its global one, for ever. */
const fromJsonSchema = (schema: unknown) =>
  z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0], { registry: z.registry() });

/**
 * A contract from a declared JSON Schema. A schema may come from a client,
 * so one that asks for a regular expression (`pattern`,
 * `patternProperties`) or refers to subschemas (`$ref`) is never checked:
 * every result is refused, saying why (the chat endpoints refuse such an
 * `output_schema` when a chat is created; this covers chats stored before
 * they did). For a schema of your own with either, write the contract with
 * zod instead.
 */
export function jsonSchemaContract(schema: Record<string, unknown>): ToolResultContract {
  const refused = uncheckable(schema);
  if (refused) {
    const message = `its output schema cannot be checked: ${refused.message}`;
    return () => {
      throw new Error(message);
    };
  }
  const zodSchema = fromJsonSchema(schema);
  return (output) => {
    const parsed = zodSchema.safeParse(output);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `it does not fit the tool's output schema (${issue.path.join(".") || "the result"}: ${issue.message})`,
      );
    }
    return output;
  };
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isValidId(id: unknown): id is string {
  return typeof id === "string" && MESSAGE_ID.test(id);
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** The client's tools of a new chat, checked: names, descriptions, schemas and sizes. */
export function parseDynamicTools(
  raw: unknown,
  {
    serverToolNames,
    replaceable,
    limits,
  }: { serverToolNames: readonly string[]; replaceable: readonly string[]; limits: ChatLimits },
): DynamicToolSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid("tools must be an array of { name, description, input_schema }.");
  if (raw.length > limits.maxDynamicTools) throw invalid(`A chat may declare at most ${limits.maxDynamicTools} tools.`);
  const seen = new Set<string>();
  return raw.map((item, index): DynamicToolSpec => {
    if (!item || typeof item !== "object") throw invalid(`tools[${index}] is not an object.`);
    const entry = item as Record<string, unknown>;
    const name = entry.name;
    if (typeof name !== "string" || !TOOL_NAME.test(name)) {
      throw invalid(`tools[${index}].name must be 1–64 letters, digits, _ or -, starting with a letter.`);
    }
    if (seen.has(name)) throw invalid(`The tool ${name} is declared twice.`);
    seen.add(name);
    if (serverToolNames.includes(name) && !replaceable.includes(name)) {
      throw invalid(`${name} is one of the server's own tools; a client cannot declare it.`);
    }
    const description = entry.description ?? "";
    if (typeof description !== "string" || description.length > limits.maxToolDescriptionChars) {
      throw invalid(
        `tools[${index}].description must be a string of at most ${limits.maxToolDescriptionChars} characters.`,
      );
    }
    const inputSchema = entry.input_schema ?? entry.inputSchema ?? entry.parameters;
    if (
      !inputSchema ||
      typeof inputSchema !== "object" ||
      Array.isArray(inputSchema) ||
      (inputSchema as { type?: unknown }).type !== "object"
    ) {
      throw invalid(`tools[${index}].input_schema must be a JSON Schema with "type": "object".`);
    }
    const outputSchema = entry.output_schema ?? entry.outputSchema;
    if (
      outputSchema !== undefined &&
      (!outputSchema || typeof outputSchema !== "object" || Array.isArray(outputSchema))
    ) {
      throw invalid(`tools[${index}].output_schema must be a JSON Schema object.`);
    }
    if (jsonBytes(inputSchema) + jsonBytes(outputSchema ?? null) > limits.maxToolSchemaBytes) {
      throw invalid(`The schemas of ${name} are larger than ${limits.maxToolSchemaBytes} bytes.`);
    }
    // The server checks results against output_schema, so a regular
    // expression or a reference in it is refused here, with what to do
    // instead; input_schema goes to the model and is never checked here.
    const refused = outputSchema === undefined ? null : uncheckable(outputSchema);
    if (refused) {
      throw invalid(`tools[${index}].output_schema cannot be used: ${refused.message}.`, {
        tool: name,
        ...refused.details,
      });
    }
    for (const [label, schema] of [
      ["input_schema", inputSchema],
      ["output_schema", outputSchema],
    ] as const) {
      if (schema === undefined) continue;
      try {
        fromJsonSchema(schema);
      } catch (error) {
        throw invalid(`tools[${index}].${label} is not a JSON Schema this server can use: ${errorMessage(error)}`);
      }
    }
    return {
      name,
      description,
      inputSchema: inputSchema as Record<string, unknown>,
      ...(outputSchema ? { outputSchema: outputSchema as Record<string, unknown> } : {}),
    };
  });
}

/** The text of a new user message: text parts only, within the size cap. */
export function userText(parts: unknown, limits: ChatLimits): string {
  const text = textOf(parts, limits);
  if (!text.trim()) throw invalid("The message has no text.");
  return text;
}

function textOf(parts: unknown, limits: ChatLimits): string {
  if (!Array.isArray(parts)) throw invalid("The message has no parts.");
  const text = parts
    .filter(
      (part): part is { type: "text"; text: string } =>
        !!part &&
        typeof part === "object" &&
        (part as { type?: unknown }).type === "text" &&
        typeof (part as { text?: unknown }).text === "string",
    )
    .map((part) => part.text)
    .join("\n");
  if (text.length > limits.maxMessageChars)
    throw invalid(`The message is longer than ${limits.maxMessageChars} characters.`);
  return text;
}

/** A file part of a new user message as the client sent it: still to be checked against the sandbox. */
export interface RawFilePart {
  type: "file";
  url: string;
  mediaType: string;
  filename: string;
}

/**
 * The parts of a new user message: its text (within the size cap) and its
 * file parts (at most `maxFilesPerMessage`, each a URL and a name); text or
 * a file, at least. Nothing else a client put in a part is kept.
 */
export function userParts(parts: unknown, limits: ChatLimits): Array<{ type: "text"; text: string } | RawFilePart> {
  const text = textOf(parts, limits);
  const files = (parts as unknown[]).filter(
    (part): part is Record<string, unknown> =>
      !!part && typeof part === "object" && (part as { type?: unknown }).type === "file",
  );
  if (files.length > limits.maxFilesPerMessage)
    throw invalid(`A message may carry at most ${limits.maxFilesPerMessage} files.`);
  const checked = files.map((part, index): RawFilePart => {
    const { url, mediaType, filename } = part;
    if (
      typeof url !== "string" ||
      url.length > 2048 ||
      typeof filename !== "string" ||
      !filename ||
      filename.length > 255
    )
      throw invalid(`File ${index + 1} of the message needs a url and a name (at most 255 characters).`);
    return { type: "file", url, mediaType: typeof mediaType === "string" ? mediaType : "", filename };
  });
  if (!text.trim() && !checked.length) throw invalid("The message has no text.");
  return [...(text.trim() ? [{ type: "text" as const, text }] : []), ...checked];
}

export interface RawResult {
  tool_call_id?: unknown;
  output?: unknown;
  is_error?: unknown;
}

export interface RawApproval {
  approval_id?: unknown;
  approved?: unknown;
  reason?: unknown;
}

/**
 * Checks a submission of answers against the calls the chat awaits: the ids
 * must be exactly the awaited calls of the client's tools (none missing,
 * none extra, none twice, none of a server-run call), every output must fit
 * its tool's contract, and every awaited approval must be answered.
 */
export function checkAnswers(
  submission: { results: readonly RawResult[]; approvals: readonly RawApproval[] },
  awaited: { calls: readonly PendingCall[]; approvals: readonly PendingApproval[]; serverCallIds: ReadonlySet<string> },
  contractFor: (toolName: string) => ToolResultContract | undefined,
  limits: ChatLimits,
): { results: AcceptedResult[]; approvals: ApprovalAnswer[] } {
  const calls = new Map(awaited.calls.map((call) => [call.toolCallId, call]));
  const seen = new Set<string>();
  const results = submission.results.map((raw, index): AcceptedResult => {
    if (!raw || typeof raw !== "object") throw invalid(`results[${index}] is not an object.`);
    const id = raw.tool_call_id;
    if (typeof id !== "string" || !id) throw invalid(`results[${index}].tool_call_id is missing.`);
    if (seen.has(id)) throw invalid(`The call ${id} is answered twice.`, { tool_call_id: id });
    seen.add(id);
    const call = calls.get(id);
    if (!call) {
      throw awaited.serverCallIds.has(id)
        ? invalid(`The call ${id} was run by the server; its result cannot come from a client.`, { tool_call_id: id })
        : invalid(`The call ${id} is not awaiting a result.`, { tool_call_id: id });
    }
    if (raw.is_error !== undefined && typeof raw.is_error !== "boolean")
      throw invalid(`results[${index}].is_error must be true or false.`);
    if (!("output" in raw) || raw.output === undefined)
      throw invalid(`results[${index}].output is missing.`, { tool_call_id: id });
    if (jsonBytes(raw.output) > limits.maxToolOutputBytes) {
      throw invalid(`The result of ${id} is larger than ${limits.maxToolOutputBytes} bytes.`, { tool_call_id: id });
    }
    if (raw.is_error) {
      const text = typeof raw.output === "string" ? raw.output : JSON.stringify(raw.output);
      if (text.length > limits.maxErrorTextChars) {
        throw invalid(`The error text of ${id} is longer than ${limits.maxErrorTextChars} characters.`, {
          tool_call_id: id,
        });
      }
      return { toolCallId: id, isError: true, output: text };
    }
    const contract = contractFor(call.toolName);
    let output: unknown = raw.output;
    if (contract) {
      try {
        output = contract(raw.output);
      } catch (error) {
        throw invalid(`The result of ${id} (${call.toolName}) was refused: ${errorMessage(error)}.`, {
          tool_call_id: id,
        });
      }
    }
    return { toolCallId: id, isError: false, output };
  });
  const missing = awaited.calls.filter((call) => !seen.has(call.toolCallId)).map((call) => call.toolCallId);
  if (missing.length) throw invalid(`Results are missing for ${missing.join(", ")}.`, { missing });

  const requests = new Map(awaited.approvals.map((request) => [request.approvalId, request]));
  const answered = new Set<string>();
  const approvals = submission.approvals.map((raw, index): ApprovalAnswer => {
    if (!raw || typeof raw !== "object") throw invalid(`approvals[${index}] is not an object.`);
    const id = raw.approval_id;
    if (typeof id !== "string" || !requests.has(id))
      throw invalid(`approvals[${index}] answers no awaited approval request.`);
    if (answered.has(id)) throw invalid(`The approval ${id} is answered twice.`);
    answered.add(id);
    if (typeof raw.approved !== "boolean") throw invalid(`approvals[${index}].approved must be true or false.`);
    if (raw.reason !== undefined && (typeof raw.reason !== "string" || raw.reason.length > limits.maxReasonChars)) {
      throw invalid(`approvals[${index}].reason must be a string of at most ${limits.maxReasonChars} characters.`);
    }
    return {
      approvalId: id,
      approved: raw.approved,
      ...(typeof raw.reason === "string" && raw.reason ? { reason: raw.reason } : {}),
    };
  });
  const unanswered = awaited.approvals
    .filter((request) => !answered.has(request.approvalId))
    .map((request) => request.approvalId);
  if (unanswered.length) throw invalid(`Approval requests are unanswered: ${unanswered.join(", ")}.`, { unanswered });
  return { results, approvals };
}
