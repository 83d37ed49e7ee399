import "./render-counter";
import "../../src/styles.css";
import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive, useExternalStoreRuntime, type ThreadMessageLike } from "@assistant-ui/react";
import { memo, useMemo, useState, type CSSProperties } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { ExecuteCodeCard, ExecuteCodeToolUI, readStreamingCode } from "../../src";
import { loadTokenizer } from "../../src/ui/highlight/load-tokenizer";
import type { CodeToken, Tokenizer } from "../../src/ui/highlight/types";
import { ansiOutput, completed, largeProgram } from "../../stories/fixtures";
import { countRendersOf, renders } from "./render-counter";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const frame = () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
let root: Root | null = null;
function mount(node: React.ReactNode) {
  root?.unmount();
  const container = document.getElementById("root")!;
  root = createRoot(container);
  root.render(node);
}

/** Time spent tokenizing, measured around the shared tokenizer. */
let tokenizeMs = 0;
async function instrumentedTokenizer(): Promise<Tokenizer> {
  const tokenizer = await loadTokenizer();
  const inner = tokenizer.tokenize.bind(tokenizer);
  if (!(tokenizer as { measured?: boolean }).measured) {
    tokenizer.tokenize = (code, state) => {
      const start = performance.now();
      try {
        return inner(code, state);
      } finally {
        tokenizeMs += performance.now() - start;
      }
    };
    (tokenizer as { measured?: boolean }).measured = true;
  }
  return tokenizer;
}

/** What common chat kits do: the whole program highlighted again on every change. */
const NaiveCard = memo(function NaiveCard({ argsText, tokenizer }: { argsText: string; tokenizer: Tokenizer }) {
  const code = readStreamingCode(argsText) ?? "";
  const lines = tokenizer.tokenize(code).lines;
  return (
    <div className="ecu-card" data-slot="execute-code">
      <pre className="ecu-code" data-expanded>
        <code>
          {lines.map((line, i) => (
            <span key={i} className="ecu-code-line">
              {line.map((token, j) => (
                <span key={j} className="ecu-token" style={token.style as CSSProperties}>
                  {token.content}
                </span>
              ))}
              {"\n"}
            </span>
          ))}
        </code>
      </pre>
    </div>
  );
});

let setArgsText: (text: string) => void = () => undefined;
const stream: { code: string; tokenizer: Tokenizer | null; expected: string | null } = { code: "", tokenizer: null, expected: null };
function StreamingHost({ kind, tokenizer, code }: { kind: "kit" | "naive"; tokenizer: Tokenizer; code: string }) {
  const [argsText, set] = useState("");
  setArgsText = set;
  const done = argsText === JSON.stringify({ code });
  if (kind === "naive") return <NaiveCard argsText={argsText} tokenizer={tokenizer} />;
  return <ExecuteCodeCard status={{ type: "running" }} args={done ? { code } : {}} argsText={argsText} />;
}

function domTokens(): string {
  return [...document.querySelectorAll("[data-slot=execute-code] .ecu-code-line")]
    .map((line) =>
      [...line.querySelectorAll(".ecu-token")]
        .map((t) => `${t.textContent}|${(t as HTMLElement).style.getPropertyValue("--shiki-light")}`)
        .join(""),
    )
    .join("\n");
}

function expectedTokens(lines: CodeToken[][]): string {
  return lines.map((line) => line.map((t) => `${t.content}|${t.style["--shiki-light"]}`).join("")).join("\n");
}

const bench = {
  /** Mounts the streaming scenario; `stream` then feeds it (traced), `checkStream` compares the result. */
  async prepareStream(kind: "kit" | "naive") {
    const tokenizer = await instrumentedTokenizer();
    stream.code = largeProgram(20_000);
    stream.tokenizer = tokenizer;
    stream.expected = expectedTokens(tokenizer.tokenize(stream.code).lines);
    flushSync(() => mount(<StreamingHost kind={kind} tokenizer={tokenizer} code={stream.code} />));
    await frame();
  },

  /** A 20,000-character program fed as argsText in 400 deltas, until its final highlighting is on screen. */
  async stream(deltas = 400, intervalMs = 15) {
    const full = JSON.stringify({ code: stream.code });
    const expected = stream.expected;
    tokenizeMs = 0;
    for (let i = 1; i <= deltas; i++) {
      // Runtimes hand over streaming arguments without their closing delimiters.
      setArgsText(i === deltas ? full : full.slice(0, Math.ceil((full.length * i) / deltas)).replace(/"?\}?$/, ""));
      await sleep(intervalMs);
    }
    const lastDelta = performance.now();
    for (let i = 0; i < 600; i++) {
      const now = await frame();
      if (domTokens() === expected) return { finalHighlightMs: now - lastDelta, tokenizeMs };
    }
    return { finalHighlightMs: null, tokenizeMs };
  },

  /** Whether the screen matches a one-shot highlight, and what one full highlight costs. */
  checkStream() {
    const start = performance.now();
    const lines = stream.tokenizer!.tokenize(stream.code).lines;
    const oneShotMs = performance.now() - start;
    return { identical: domTokens() === expectedTokens(lines), oneShotMs };
  },

  /** A finished card mounted on a cold page: code text, then highlighting. */
  async firstPaint() {
    const code = largeProgram(4_000);
    const start = performance.now();
    flushSync(() => mount(<ExecuteCodeCard status={{ type: "complete" }} args={{ code }} result={completed({ stdout: "ok\n" })} />));
    const painted = await frame();
    const textVisible = document.querySelector("[data-slot=execute-code-source] code")?.textContent?.startsWith("def step_0");
    let highlighted = 0;
    for (let i = 0; i < 600 && !highlighted; i++) {
      const now = await frame();
      if (document.querySelector(".ecu-token")) highlighted = now;
    }
    return { codeTextMs: textVisible ? painted - start : null, highlightMs: highlighted ? highlighted - start : null };
  },

  /** Loads the kit and its highlighter with a small card first, as a chat page would have. */
  async prepareLargeOutput() {
    await bench.firstPaint();
  },

  /** A run whose stdout is 1 MB of ANSI-coloured text, mounted on a page where the kit is loaded. */
  async largeOutput() {
    let stdout = "";
    for (let i = 0; stdout.length < 1_000_000; i++) stdout += `${i}: ${ansiOutput}`;
    stdout = stdout.slice(0, 1_000_000);
    await frame();
    const start = performance.now();
    flushSync(() => mount(<ExecuteCodeCard status={{ type: "complete" }} args={{ code: "report()" }} result={completed({ stdout })} />));
    const painted = await frame();
    await sleep(200);
    const card = document.querySelector("[data-slot=execute-code]")!;
    return { firstPaintMs: painted - start, domNodes: card.querySelectorAll("*").length };
  },

  /** 50 finished cards in an assistant-ui thread while a 51st call streams. */
  async thread(deltas = 100) {
    const finished: ThreadMessageLike[] = Array.from({ length: 50 }, (_, i) => ({
      id: `m${i}`,
      role: "assistant",
      content: [
        {
          type: "tool-call",
          toolCallId: `done-${i}`,
          toolName: "execute_code",
          args: { code: `print(${i})` },
          argsText: JSON.stringify({ code: `print(${i})` }),
          result: completed({ stdout: `${i}\n` }),
        },
      ],
    }));
    let update: (text: string) => void = () => undefined;
    function Thread() {
      const [argsText, setText] = useState("");
      update = setText;
      const messages = useMemo<ThreadMessageLike[]>(
        () => [
          ...finished,
          {
            id: "live",
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: "live", toolName: "execute_code", argsText, args: {} }],
          },
        ],
        [argsText],
      );
      const runtime = useExternalStoreRuntime({
        messages,
        isRunning: true,
        convertMessage: (message: ThreadMessageLike) => message,
        onNew: async () => undefined,
      });
      return (
        <AssistantRuntimeProvider runtime={runtime}>
          <ExecuteCodeToolUI />
          <ThreadPrimitive.Root>
            <ThreadPrimitive.Messages>
              {() => (
                <MessagePrimitive.Root>
                  <MessagePrimitive.Parts />
                </MessagePrimitive.Root>
              )}
            </ThreadPrimitive.Messages>
          </ThreadPrimitive.Root>
        </AssistantRuntimeProvider>
      );
    }
    countRendersOf(ExecuteCodeCard, (props) => {
      const text = props.argsText as string | undefined;
      return text && !text.startsWith('{"code":"print(') ? null : (text ?? null);
    });
    mount(<Thread />);
    await sleep(500);
    renders.clear();
    const full = JSON.stringify({ code: largeProgram(3_000) });
    for (let i = 1; i <= deltas; i++) {
      update(full.slice(0, Math.ceil((full.length * i) / deltas)));
      await sleep(10);
    }
    await sleep(300);
    const cards = document.querySelectorAll("[data-slot=execute-code]").length;
    let finishedRenders = 0;
    for (const count of renders.values()) finishedRenders += count;
    return { cards, finishedRenders };
  },
};

(window as unknown as { bench: typeof bench }).bench = bench;
document.title = "ready";
