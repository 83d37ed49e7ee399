// Scenario 7: the card in a real assistant-ui thread on the AI SDK runtime
// (`useChatRuntime` with a `DefaultChatTransport`), fed by a scripted UI
// message stream as a chat server sends it: tool-input-start, a
// tool-input-delta every few milliseconds, tool-input-available, then the
// result. The page is cold: neither the kit's highlighter nor shiki has loaded.
import {
  AuiConfig,
  Tools,
  type AssistantRuntime,
  type Toolkit,
  type ToolCallMessagePartProps,
} from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { createUIMessageStream, createUIMessageStreamResponse, DefaultChatTransport, type UIMessageChunk } from "ai";
import { useState } from "react";
import type { HighlighterCore } from "shiki/core";
import { kitConfig, ThreadView } from "./thread-view";
import { sleep } from "./timing";

/**
 * The kit, with the highlighter started at the app's start as the docs say,
 * and without (the card starts it); the naive baseline; and plain text with
 * no highlighting, the runtime's own cost.
 */
export type ThreadKind = "kit" | "kit-unstarted" | "shiki" | "plain";

/**
 * What common chat kits do in a tool UI: highlight the arguments' `code`
 * (assistant-ui parses the partial JSON) with shiki's `codeToHtml` on every
 * render once shiki has loaded, plain text until then.
 */
function makeNaiveToolkit(loadShiki: () => Promise<HighlighterCore>): Toolkit {
  function NaiveRender(props: ToolCallMessagePartProps<{ code?: string }, unknown>) {
    const [highlighter, setHighlighter] = useState<HighlighterCore | null>(null);
    if (!highlighter) void loadShiki().then((h) => setHighlighter(() => h));
    const code = typeof props.args.code === "string" ? props.args.code : "";
    const body = highlighter
      ? highlighter.codeToHtml(code, {
          lang: "python",
          themes: { light: "github-light-default", dark: "github-dark-default" },
          defaultColor: false,
        })
      : null;
    return (
      <div
        className="ecu-card"
        data-slot="execute-code"
        data-baseline="shiki"
        data-phase={props.result ? "succeeded" : "writing"}
      >
        {body === null ? <pre>{code}</pre> : <div dangerouslySetInnerHTML={{ __html: body }} />}
        {props.result !== undefined && (
          <pre data-slot="execute-code-stdout">{String((props.result as { stdout?: string }).stdout ?? "")}</pre>
        )}
      </div>
    );
  }
  return { execute_code: { type: "backend", render: NaiveRender } } as Toolkit;
}

/** The code as one text node: what the thread costs without any highlighting. */
const plainToolkit = {
  execute_code: {
    type: "backend",
    render: (props: ToolCallMessagePartProps<{ code?: string }, unknown>) => (
      <div className="ecu-card" data-slot="execute-code" data-phase={props.result ? "succeeded" : "writing"}>
        <pre>{typeof props.args.code === "string" ? props.args.code : ""}</pre>
        {props.result !== undefined && (
          <pre data-slot="execute-code-stdout">{String((props.result as { stdout?: string }).stdout ?? "")}</pre>
        )}
      </div>
    ),
  },
} as Toolkit;

const plainConfig = AuiConfig({ tools: Tools({ toolkit: plainToolkit }) });

export interface ThreadScript {
  /** The tool arguments' JSON text, cut into the deltas the server sends. */
  deltas: string[];
  code: string;
  stdout: string;
  intervalMs: number;
}

/** The chat server stand-in; `lastDeltaAt` is when it sent the last argument delta. */
function scriptedFetch(script: ThreadScript, resultGate: Promise<void>, sent: { lastDeltaAt: number }) {
  const id = "call-1";
  return async () =>
    createUIMessageStreamResponse({
      stream: createUIMessageStream({
        execute: async ({ writer }) => {
          const write = (chunk: UIMessageChunk) => writer.write(chunk);
          write({ type: "start" });
          write({ type: "start-step" });
          write({ type: "tool-input-start", toolCallId: id, toolName: "execute_code" });
          for (const delta of script.deltas) {
            await sleep(script.intervalMs);
            write({ type: "tool-input-delta", toolCallId: id, inputTextDelta: delta });
          }
          sent.lastDeltaAt = performance.now();
          performance.mark("last-delta");
          write({
            type: "tool-input-available",
            toolCallId: id,
            toolName: "execute_code",
            input: { code: script.code },
          });
          await resultGate;
          write({
            type: "tool-output-available",
            toolCallId: id,
            output: {
              status: "completed",
              stdout: script.stdout,
              stderr: "",
              exitCode: 0,
              signal: null,
              wallTimeMs: 412,
              truncated: { stdout: 0, stderr: 0 },
            },
          });
          write({ type: "finish-step" });
          write({ type: "finish" });
        },
      }),
    });
}

export function makeThread(kind: ThreadKind, script: ThreadScript, loadShiki: () => Promise<HighlighterCore>) {
  let openResult!: () => void;
  const resultGate = new Promise<void>((resolve) => (openResult = resolve));
  const sent = { lastDeltaAt: Number.NaN };
  const transport = new DefaultChatTransport({
    api: "/api/chat",
    fetch: scriptedFetch(script, resultGate, sent) as typeof globalThis.fetch,
  });
  const config =
    kind === "kit" || kind === "kit-unstarted"
      ? kitConfig
      : kind === "plain"
        ? plainConfig
        : AuiConfig({ tools: Tools({ toolkit: makeNaiveToolkit(loadShiki) }) });
  let runtime: AssistantRuntime | null = null;

  function Thread() {
    const chat = useChatRuntime({ transport });
    runtime = chat;
    return <ThreadView runtime={chat} config={config} />;
  }

  return {
    element: <Thread />,
    /** Sends the user's message once the thread has rendered. */
    send: async (frame: () => Promise<number>) => {
      while (!runtime) await frame();
      // The thread has mounted (the runtime's own work, with no card yet); the bench counts the tasks after this apart.
      performance.mark("thread-mounted");
      runtime.thread.append("Write a long program and run it.");
    },
    openResult: () => openResult(),
    sent,
  };
}
