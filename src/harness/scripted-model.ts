import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { BROWSER_RUN } from "../server/chat/client-tools.js";
import { FIGURE_KINDS, UNTITLED_FIGURE } from "../server/figure-words.js";
import { TIMED_OUT } from "../server/tool/model-output.js";
import { DEMO_PROGRAMS, programFor, RESTART_PROGRAM, RESTART_REQUEST, scriptedHelp } from "./scripted-programs.js";

export interface ScriptedModelOptions {
  /** Name of the code tool the model calls. */
  toolName?: string;
  /**
   * Pause between streamed chunks, so the card's writing phase is visible.
   * @default 30 ms
   */
  chunkDelayMs?: number;
  /**
   * Pieces the tool input is streamed in.
   * @default 8
   */
  inputChunks?: number;
}

function lastOf<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return items[i];
  return undefined;
}

function textOfTool(prompt: LanguageModelV3Prompt): string | null {
  const last = prompt[prompt.length - 1];
  if (last?.role !== "tool") return null;
  const result = lastOf(last.content, (part) => part.type === "tool-result");
  if (result?.type !== "tool-result") return null;
  const output = result.output;
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "execution-denied":
      return `denied: ${output.reason ?? ""}`;
    default:
      return JSON.stringify("value" in output ? output.value : output);
  }
}

/** The question that makes the scripted model describe its prompt: what a chat server really sent it. */
export const DESCRIBE_PROMPT = "What do you see?";

/**
 * A plain description of a prompt: the roles in order, each tool result's
 * first lines, and each system message's first words. Tests ask for it to
 * see what reached the model.
 */
export function describePrompt(prompt: LanguageModelV3Prompt): string {
  const roles = prompt.map((message) => message.role).join(", ");
  const results = prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => {
          if (part.type !== "tool-result") return [];
          const output = part.output;
          const text =
            output.type === "text" || output.type === "error-text"
              ? output.value
              : JSON.stringify("value" in output ? output.value : output);
          // The exit code, and the first line of stdout after its header and fence.
          return [`«${text.split("\n").slice(0, 4).join(" / ")}»`];
        })
      : [],
  );
  const systems = prompt.flatMap((message) => (message.role === "system" ? [`«${message.content.slice(0, 40)}»`] : []));
  return `Prompt: ${roles}. Tool results: ${results.join(", ") || "none"}. System: ${systems.join(", ") || "none"}.`;
}

/** What each stream printed, from between its fences, in order (stderr's block after stdout's); "" for nothing. */
function printedStreams(text: string): { stdout: string; stderr: string } {
  const block = (name: string) =>
    new RegExp(
      `^${name}(?:: nothing| \\(as printed, between the two lines "(~{3,} [0-9a-f]{14})"[^\n]*\\):\n\\1\n([\\s\\S]*?)\\1)(?:\n|$)`,
    );
  const at = text.search(/\n(?:stdout|stderr)[ :]/);
  if (at === -1) return { stdout: "", stderr: "" };
  const streams = text.slice(at + 1);
  const stdout = block("stdout").exec(streams);
  const rest = stdout ? streams.slice(stdout[0].length) : "";
  return { stdout: stdout?.[2] ?? "", stderr: block("stderr").exec(rest)?.[2] ?? "" };
}

/**
 * Characters that would change how the tutor's sentence reads without being
 * seen (a carriage return, bidi controls, zero-width and other format
 * characters), named as the card names them: `⟨U+202E⟩`.
 */
const named = (text: string): string =>
  text.replace(
    /(?![\t\u200C\u200D])[\p{Cc}\p{Cf}\u2028\u2029]/gu,
    (char) => `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );

/** How the sandbox names an untitled figure by its kind. */
const FIGURE_KIND_WORDS: ReadonlySet<string> = new Set(Object.values(FIGURE_KINDS));

/** A file name as the tool wrote it (quoted, when it is more than letters, digits and `_ . - /`), as it is. */
const unquoted = (name: string): string => (name.startsWith('"') ? (JSON.parse(name) as string) : name);

/** What the model says after the tool answered: how the program ended and its first line of output. */
export function replyToToolResult(told: string): string {
  // A browser's run is told under a line that says so; what follows reads as the server's.
  const text = told.startsWith(`${BROWSER_RUN}\n`) ? told.slice(BROWSER_RUN.length + 1) : told;
  if (text.startsWith("denied:")) {
    const reason = text.slice("denied:".length).trim();
    return reason === "expired"
      ? "The approval request expired, so the code did not run and I have no output to show."
      : `You chose not to run the code, so it did not run and I have no output to show.${reason ? ` (Your reason: ${reason})` : ""}`;
  }
  const exit = /^exit code: (-?\d+|unknown)/.exec(text);
  const killed = /^killed by (\S+)/.exec(text);
  if (exit || killed) {
    // The code runner's facts come before the streams; the streams are fenced (server/tool/model-output.ts).
    const streamsAt = text.search(/\n(?:stdout|stderr)[ :]/);
    const facts = streamsAt === -1 ? text : text.slice(0, streamsAt);
    // Quoted as a person would read it: without the terminal's escape codes.
    const streams = printedStreams(text);
    const stdout = named((streams.stdout.split("\n")[0] ?? "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""));
    const stderr = named(streams.stderr.trim().split("\n").pop() ?? "");
    // A run the sandbox stopped (its memory, or room for others) is told in the card's own words, not by its signal.
    const plain = killed ? /^in plain words \(as the student sees it\): (.+)$/m.exec(facts)?.[1] : undefined;
    // In a tutor's words: an exit code only where nothing else says how the program ended (sys.exit(3)).
    const status = plain
      ? "was stopped before its end"
      : killed
        ? `was killed by ${killed[1]}`
        : exit![1] === "0"
          ? "ran without errors"
          : stderr
            ? "stopped with an error"
            : exit![1] === "unknown"
              ? "ended without an exit code"
              : `ended with exit code ${exit![1]}`;
    const printed = stdout
      ? `Its first line of output is: ${stdout}${/[.!?]$/.test(stdout) ? "" : "."}`
      : stderr
        ? "It printed nothing to its output."
        : "It printed nothing.";
    // The values the failing line read, as the code runner told them: a tutor explains from those.
    const values = /^values at that line: (.+)$/m.exec(facts)?.[1];
    const failure = plain
      ? ` ${plain}`
      : stderr && (killed || exit![1] !== "0")
        ? ` The error was: ${stderr}${values ? `${/[.!?]$/.test(stderr) ? "" : "."} At that line, ${values}.` : ""}`
        : "";
    // Figures by their title (the first part of their description), files by name.
    const figures = [
      ...facts.matchAll(
        /^- figure ("(?:[^"\\]|\\.)*"|\S+) \([^)]*\)(?:, described by the program as ("(?:[^"\\]|\\.)*"))?/gm,
      ),
    ].map(([, name, described]) => {
      const title = described ? (JSON.parse(described) as string).split(/[,;]/)[0]! : null;
      // The sandbox's own words for an untitled figure: nothing to name, or its kind in the sentence's case.
      if (title === UNTITLED_FIGURE) return null;
      if (title && FIGURE_KIND_WORDS.has(title)) return title.replace(/^An? /, (article) => article.toLowerCase());
      // A name or title the program chose: its line breaks and bidi controls named, so it cannot add words.
      return named(title || unquoted(name!));
    });
    const files = [...facts.matchAll(/^- file ("(?:[^"\\]|\\.)*"|\S+) /gm)].map(([, name]) => named(unquoted(name!)));
    const titled = figures.filter((title) => title !== null);
    const drew = figures.length
      ? ` It drew ${figures.length === 1 ? "one figure" : `${figures.length} figures`}${titled.length ? `, ${titled.join(", ")}` : ""}.`
      : "";
    const wrote = files.length ? ` It wrote ${files.join(", ")}, which you can download under the output.` : "";
    const restarted = /^python session: restarted/m.test(facts) ? "I restarted Python first. " : "";
    return `${restarted}The program ${status}. ${printed}${failure}${drew}${wrote}`;
  }
  // A run past its time limit: the code runner's first line says so in a tutor's words already.
  if (text.startsWith(TIMED_OUT)) return text.split("\n")[0]!;
  return `The code did not give a result: ${text.split("\n")[0]}`;
}

const newCallId = () => `call_${crypto.randomUUID().slice(0, 8)}`;

function chunked(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function textParts(text: string, pieces: number): LanguageModelV3StreamPart[] {
  return [
    { type: "text-start", id: "t" },
    ...chunked(text, pieces).map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
  ];
}

/**
 * A language model that needs no key: it turns the latest user message into
 * a streamed `execute_code` call (a fenced Python block runs exactly as
 * written; the demo prompts map to built-in programs), and after the tool
 * result answers with the exit code and the first line of output. Each call
 * depends on its prompt alone, so concurrent chats share nothing, and it
 * keeps nothing once the call is answered (the AI SDK's mock models record
 * every call, which grows without end in a long-running server).
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): LanguageModelV3 {
  const toolName = options.toolName ?? "execute_code";
  const chunkDelayInMs = options.chunkDelayMs ?? 30;
  const inputChunks = options.inputChunks ?? 8;

  /** What to answer: text, or a call of the code tool. Depends on the prompt alone. */
  const decide = (
    prompt: LanguageModelV3Prompt,
    tools: LanguageModelV3CallOptions["tools"],
  ): { text: string } | { input: { title?: string; code: string; restart?: true } } => {
    const toolText = textOfTool(prompt);
    if (toolText !== null) return { text: replyToToolResult(toolText) };
    const user = lastOf(prompt, (message) => message.role === "user");
    const message =
      user?.role === "user" ? user.content.map((part) => (part.type === "text" ? part.text : "")).join("\n") : "";
    if (message.trim() === DESCRIBE_PROMPT) return { text: describePrompt(prompt) };
    // The chat's files, as the server named them in the tool's description, and whether its runs share a
    // session the model may restart.
    const found = tools?.find((tool) => tool.name === toolName && tool.type === "function");
    const description = found?.type === "function" ? (found.description ?? "") : "";
    const restart = RESTART_REQUEST.test(message) && description.includes("`restart: true`");
    const code = programFor(message, description) ?? (restart ? RESTART_PROGRAM : null);
    if (code === null) return { text: scriptedHelp(description) };
    // A demo program has a title, as a real model would give; a program the student wrote is theirs to title.
    const title = DEMO_PROGRAMS.find((demo) => demo.code === code)?.title;
    return { input: { ...(title ? { title } : {}), code, ...(restart ? { restart } : {}) } };
  };

  return {
    specificationVersion: "v3",
    provider: "execute-code-ui-harness",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: async ({ prompt, tools }) => {
      const answer = decide(prompt, tools);
      return "text" in answer
        ? {
            content: [{ type: "text", text: answer.text }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "tool-call", toolCallId: newCallId(), toolName, input: JSON.stringify(answer.input) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
    doStream: async ({ prompt, tools }) => {
      const answer = decide(prompt, tools);
      let parts: LanguageModelV3StreamPart[];
      if ("text" in answer) {
        parts = textParts(answer.text, 6);
      } else {
        const id = newCallId();
        const input = JSON.stringify(answer.input);
        parts = [
          { type: "tool-input-start", id, toolName },
          ...chunked(input, inputChunks).map(
            (delta): LanguageModelV3StreamPart => ({ type: "tool-input-delta", id, delta }),
          ),
          { type: "tool-input-end", id },
          { type: "tool-call", toolCallId: id, toolName, input },
          { type: "finish", usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
        ];
      }
      return {
        stream: simulateReadableStream({
          chunks: [{ type: "stream-start", warnings: [] } as LanguageModelV3StreamPart, ...parts],
          chunkDelayInMs,
        }),
      };
    },
  };
}
