import "./render-counter";
import "../../src/styles.css";
import type { ThreadMessageLike } from "@assistant-ui/react";
import { memo, useMemo, useState, type CSSProperties } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { ExecuteCodeCard, preloadHighlighter } from "../../src";
import { readStreamingCode } from "../../src/view/streaming-args";
import { tokenizerResource } from "../../src/ui/highlight/load-tokenizer";
import { highlightStats } from "../../src/ui/highlight/sessions";
import type { Tokenizer } from "../../src/ui/highlight/types";
import { ansiOutput, completed, largeProgram, primesCode, primesOutput } from "../../stories/fixtures";
import { makeThread, type ThreadKind } from "./ai-thread";
import { liveOutput, prepareLiveOutput } from "./live-output";
import { colourRuns, expectedTokens } from "./colours";
import { countRendersOf, renders } from "./render-counter";
import type { HighlighterCore } from "shiki/core";
import { StoreThreadView } from "./thread-view";
import { frame, sleep } from "./timing";

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
  const tokenizer = await tokenizerResource.load();
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

type Kind = "kit" | "naive" | "shiki";

/** A full re-highlight with the kit's own tokenizer on every change, every line rendered. */
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

/**
 * What common chat kits do: shiki's `codeToHtml` with its JavaScript regex
 * engine and the stock Python grammar on every change, set as HTML.
 */
const ShikiHtmlCard = memo(function ShikiHtmlCard({
  argsText,
  highlighter,
}: {
  argsText: string;
  highlighter: HighlighterCore;
}) {
  const code = readStreamingCode(argsText) ?? "";
  const start = performance.now();
  const html = highlighter.codeToHtml(code, {
    lang: "python",
    themes: { light: "github-light-default", dark: "github-dark-default" },
    defaultColor: false,
  });
  tokenizeMs += performance.now() - start;
  return (
    <div
      className="ecu-card"
      data-slot="execute-code"
      data-baseline="shiki"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});

// Loaded only for the baseline, so that the kit's first paint stays cold.
let shikiHighlighter: Promise<HighlighterCore> | null = null;
const loadShiki = () =>
  (shikiHighlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, python, light, dark] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
      import("shiki/langs/python.mjs"),
      import("shiki/themes/github-light-default.mjs"),
      import("shiki/themes/github-dark-default.mjs"),
    ]);
    return createHighlighterCore({
      langs: [python.default],
      themes: [light.default, dark.default],
      engine: createJavaScriptRegexEngine(),
    });
  })());

let setArgsText: (text: string) => void = () => undefined;
const stream = {
  code: "",
  full: "",
  deltas: [] as string[],
  kind: "kit" as Kind,
  lineCount: 0,
  tokenCount: 0,
  tokenizer: null as Tokenizer | null,
  expected: null as string | null,
};
function StreamingHost({
  kind,
  tokenizer,
  highlighter,
}: {
  kind: Kind;
  tokenizer: Tokenizer;
  highlighter: HighlighterCore | null;
}) {
  const [argsText, set] = useState("");
  setArgsText = set;
  if (kind === "naive") return <NaiveCard argsText={argsText} tokenizer={tokenizer} />;
  if (kind === "shiki") return <ShikiHtmlCard argsText={argsText} highlighter={highlighter!} />;
  const done = argsText === stream.full;
  return <ExecuteCodeCard status={{ type: "running" }} args={done ? { code: stream.code } : {}} argsText={argsText} />;
}

/** A line's colour runs, as on screen. */
function lineRuns(line: Element, shiki: boolean): string {
  return colourRuns(
    [...line.querySelectorAll<HTMLElement>(shiki ? "span" : ".ecu-token")].map((t) => ({
      text: t.textContent ?? "",
      colour: t.style.getPropertyValue("--shiki-light"),
    })),
  );
}

function domTokens(): string {
  const card = document.querySelector("[data-slot=execute-code]");
  const shiki = card?.getAttribute("data-baseline") === "shiki";
  return [...(card?.querySelectorAll(shiki ? ".line" : ".ecu-code-line") ?? [])]
    .map((line) => lineRuns(line, shiki))
    .join("\n");
}

/**
 * Whether every line a person can see has its final colours: the lines
 * inside the window and inside the code's scroll box, once the last line of
 * the program is there. A block of the kit's code still in plain text counts
 * as not highlighted.
 */
function inViewMatches(expected: string[]): boolean {
  const card = document.querySelector("[data-slot=execute-code]");
  const pre = card?.querySelector("pre");
  if (!card || !pre) return false;
  const shiki = card.getAttribute("data-baseline") === "shiki";
  const lines = [...pre.querySelectorAll(shiki ? ".line" : ".ecu-code-line")];
  const complete = shiki
    ? lines.length === expected.length
    : pre.querySelector(`[data-line="${expected.length}"]`) !== null &&
      !pre.querySelector(`[data-line="${expected.length + 1}"]`);
  if (!complete) return false;
  const box = pre.getBoundingClientRect();
  const top = Math.max(0, box.top);
  const bottom = Math.min(innerHeight, box.bottom);
  const visible = (element: Element) => {
    const r = element.getBoundingClientRect();
    return r.height > 0 && r.bottom > top && r.top < bottom;
  };
  for (const block of pre.querySelectorAll(".ecu-code-block:not([data-slot])")) {
    if (visible(block) && !block.querySelector(".ecu-code-line")) return false;
  }
  let seen = 0;
  for (const [i, line] of lines.entries()) {
    if (!visible(line)) continue;
    const index = shiki ? i : Number(line.getAttribute("data-line")) - 1;
    if (lineRuns(line, shiki) !== expected[index]) return false;
    seen++;
  }
  return seen > 0;
}

/** Built before the traced part, so the benchmark's own string building is not counted. */
let largeStdout = "";
const aiThread = {
  kind: "kit" as ThreadKind,
  script: null as Parameters<typeof makeThread>[1] | null,
  expected: "",
  tokenCount: 0,
  lineCount: 0,
};

const bench = {
  prepareLiveOutput,
  liveOutput,
  /** Mounts the streaming scenario; `stream` then feeds it (traced), `checkStream` compares the result. */
  async prepareStream(kind: Kind, deltas = 400) {
    const [tokenizer, highlighter] = await Promise.all([
      instrumentedTokenizer(),
      kind === "shiki" ? loadShiki() : null,
    ]);
    stream.code = largeProgram(20_000);
    stream.full = JSON.stringify({ code: stream.code });
    // Runtimes hand over streaming arguments without their closing delimiters.
    stream.deltas = Array.from({ length: deltas }, (_, i) =>
      i === deltas - 1
        ? stream.full
        : stream.full.slice(0, Math.ceil((stream.full.length * (i + 1)) / deltas)).replace(/"?\}?$/, ""),
    );
    stream.tokenizer = tokenizer;
    const lines = tokenizer.tokenize(stream.code).lines;
    stream.expected = expectedTokens(lines);
    stream.kind = kind;
    stream.lineCount = lines.length;
    stream.tokenCount = lines.reduce((sum, line) => sum + line.length, 0);
    // The kit's worker starts warm, as the tokenizer the baselines use does:
    // a card with another program has been highlighted before.
    if (kind === "kit") {
      flushSync(() => mount(<ExecuteCodeCard status={{ type: "complete" }} args={{ code: primesCode }} />));
      while (!document.querySelector(".ecu-token")) await frame();
      await sleep(300);
    }
    flushSync(() => mount(<StreamingHost kind={kind} tokenizer={tokenizer} highlighter={highlighter} />));
    await frame();
  },

  /** A 20,000-character program fed as argsText in 400 deltas, until its final highlighting is on screen. */
  async stream(intervalMs = 15) {
    const kind = stream.kind;
    const expected = stream.expected;
    tokenizeMs = 0;
    const before = { ...highlightStats };
    let lastDelta = 0;
    for (const delta of stream.deltas) {
      setArgsText(delta);
      lastDelta = performance.now();
      await sleep(intervalMs);
    }
    // Reading every token's colour costs more than a frame: compare only once the count of coloured runs adds up.
    const card = document.querySelector("[data-slot=execute-code]")!;
    const runs = card.getElementsByClassName(kind === "shiki" ? "line" : "ecu-token");
    const expectedRuns = kind === "shiki" ? stream.lineCount : stream.tokenCount;
    const expectedLines = expected!.split("\n");
    let inView: number | null = null;
    let all: number | null = null;
    for (let i = 0; i < 600 && all === null; i++) {
      const now = await frame();
      if (inView === null && inViewMatches(expectedLines)) inView = now - lastDelta;
      if (runs.length === expectedRuns && domTokens() === expected) all = now - lastDelta;
    }
    // The kit highlights in a worker (or in steps on the main thread); the baselines in the page, measured around the tokenizer.
    const highlighting =
      tokenizeMs + highlightStats.workerMs - before.workerMs + highlightStats.mainThreadMs - before.mainThreadMs;
    return { finalHighlightMs: all, finalInViewMs: inView ?? all, tokenizeMs: highlighting };
  },

  /** Whether the screen matches a one-shot highlight, and what one full highlight costs with the kit and with shiki. */
  async checkStream() {
    let start = performance.now();
    const lines = stream.tokenizer!.tokenize(stream.code).lines;
    const oneShotMs = performance.now() - start;
    let shikiOneShotMs: number | null = null;
    if (shikiHighlighter) {
      const highlighter = await shikiHighlighter;
      start = performance.now();
      highlighter.codeToHtml(stream.code, {
        lang: "python",
        themes: { light: "github-light-default", dark: "github-dark-default" },
        defaultColor: false,
      });
      shikiOneShotMs = performance.now() - start;
    }
    const [shown, expected] = [domTokens().split("\n"), expectedTokens(lines).split("\n")];
    const differs = shown.findIndex((line, i) => line !== expected[i]);
    return {
      identical: differs === -1 && shown.length === expected.length,
      firstDifference:
        differs === -1 ? null : { line: differs + 1, shown: shown[differs], expected: expected[differs] },
      oneShotMs,
      shikiOneShotMs,
    };
  },

  /** A finished card mounted on a cold page: code text, then highlighting. */
  async firstPaint() {
    const code = largeProgram(4_000);
    performance.mark("mount");
    const start = performance.now();
    flushSync(() =>
      mount(<ExecuteCodeCard status={{ type: "complete" }} args={{ code }} result={completed({ stdout: "ok\n" })} />),
    );
    const painted = await frame();
    const textVisible = document
      .querySelector("[data-slot=execute-code-source] code")
      ?.textContent?.startsWith("def step_0");
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
    // The first card goes on highlighting after its first tokens show; let it
    // finish, so that the trace holds the large output's work alone.
    await sleep(1000);
    let stdout = "";
    for (let i = 0; stdout.length < 1_000_000; i++) stdout += `${i}: ${ansiOutput}`;
    largeStdout = stdout.slice(0, 1_000_000);
  },

  /** A run whose stdout is 1 MB of ANSI-coloured text, mounted on a page where the kit is loaded. */
  async largeOutput() {
    const stdout = largeStdout;
    // The result arrives in a task of its own, as a network chunk does, not inside a frame callback.
    await frame();
    await sleep(0);
    const start = performance.now();
    // Below the card already showing, as a later message in a chat.
    const container = document.createElement("div");
    document.body.append(container);
    flushSync(() =>
      createRoot(container).render(
        <ExecuteCodeCard status={{ type: "complete" }} args={{ code: "report()" }} result={completed({ stdout })} />,
      ),
    );
    const painted = await frame();
    await sleep(200);
    const card = container.querySelector("[data-slot=execute-code]")!;
    return { firstPaintMs: painted - start, domNodes: card.querySelectorAll("*").length };
  },

  /**
   * Mounts nothing yet: builds the thread scenario's script. `expected` is
   * the final program's colours, highlighted in Node so that the page stays cold.
   */
  prepareAiThread(kind: ThreadKind, expected: string, tokenCount: number, lineCount: number, deltas = 400) {
    const code = largeProgram(20_000);
    const full = JSON.stringify({ code });
    const cuts = Array.from({ length: deltas + 1 }, (_, i) => Math.round((full.length * i) / deltas));
    aiThread.script = {
      code,
      deltas: cuts.slice(1).map((end, i) => full.slice(cuts[i], end)),
      stdout: primesOutput.repeat(20),
      intervalMs: 15,
    };
    Object.assign(aiThread, { kind, expected, tokenCount, lineCount });
  },

  /**
   * Mount → the user's message → the program streams in → its final
   * highlighting → the result. Traced as a whole.
   */
  async aiThread() {
    const { kind, script, expected } = aiThread;
    const thread = makeThread(kind, script!, loadShiki);
    const start = performance.now();
    // As the mounting snippet does, in an effect at the app's start.
    if (kind === "kit") preloadHighlighter();
    mount(thread.element);
    await thread.send(frame);
    const card = () => document.querySelector("[data-slot=execute-code]");
    const runs = document.getElementsByClassName(kind === "shiki" ? "line" : "ecu-token");
    let firstHighlight: number | null = null;
    let firstCard: number | null = null;
    // Until the last delta has been sent, note when the card and its first colours show.
    while (Number.isNaN(thread.sent.lastDeltaAt)) {
      const now = await frame();
      if (firstCard === null && card()) firstCard = now;
      if (firstHighlight === null && runs.length > 0) firstHighlight = now;
    }
    const lastDelta = thread.sent.lastDeltaAt;
    const expectedRuns = kind === "shiki" ? aiThread.lineCount : aiThread.tokenCount;
    let finalHighlight: number | null = null;
    // Plain text has no colours to wait for: its "final" is the whole program on screen.
    const done =
      kind === "plain"
        ? () => card()?.querySelector("pre")?.textContent?.length === script!.code.length
        : () => runs.length === expectedRuns && domTokens() === expected;
    const expectedLines = expected.split("\n");
    let finalInView: number | null = null;
    for (let i = 0; i < 600 && finalHighlight === null; i++) {
      const now = await frame();
      if (firstHighlight === null && runs.length > 0) firstHighlight = now;
      if (finalInView === null && kind !== "plain" && inViewMatches(expectedLines)) finalInView = now;
      if (done()) finalHighlight = now;
    }
    const identical = finalHighlight !== null;
    thread.openResult();
    const resultSent = performance.now();
    let resultShown: number | null = null;
    for (let i = 0; i < 600 && resultShown === null; i++) {
      const now = await frame();
      if (
        card()?.getAttribute("data-phase") === "succeeded" &&
        card()?.querySelector("[data-slot=execute-code-stdout]")
      )
        resultShown = now;
    }
    // Trailing work (highlighting left over, effects) stays in the trace.
    await sleep(500);
    return {
      firstCardMs: firstCard === null ? null : firstCard - start,
      firstHighlightMs: firstHighlight === null ? null : firstHighlight - start,
      finalHighlightMs: finalHighlight === null ? null : finalHighlight - lastDelta,
      finalInViewMs: (finalInView ?? finalHighlight) === null ? null : (finalInView ?? finalHighlight)! - lastDelta,
      resultMs: resultShown === null ? null : resultShown - resultSent,
      identical,
    };
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
      return <StoreThreadView messages={messages} />;
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
