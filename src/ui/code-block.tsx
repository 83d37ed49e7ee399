"use client";

import { Fragment, memo, useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { useHighlightedLines } from "./highlight/use-highlighted-lines.js";
import type { CodeToken } from "./highlight/types.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { Pane, type PaneProps } from "./pane.js";
import { useControllableOpen } from "./use-controllable.js";
import { revealInvisible } from "./visible-text.js";

/** Programs longer than this start folded, with "Show more" under them. */
const FOLDED_LINES = 16;
/** While the code streams, only its last lines are rendered: each delta then costs the same, however long the program. */
const STREAMING_TAIL_LINES = 60;
/**
 * Lines are rendered in blocks of this many, each its own block box, so a
 * change to one block lays out that block alone. A block starts as one text
 * node and becomes a span per line, with its tokens, one block per frame from
 * the top: a long program as thousands of token spans in one commit would
 * stall the page, and a plain text node costs a fraction of a span per line.
 */
const BLOCK_LINES = 50;
/**
 * (perf) Blocks that turn into lines in one frame: two cost about 10 ms of
 * rendering and as much of layout on a busy two-core machine, well inside a
 * frame's budget, and halve the time until the whole program is highlighted.
 */
const REVEAL_BLOCKS_PER_FRAME = 2;

interface CodeLineProps {
  number: number;
  text: string;
  tokens: CodeToken[] | undefined;
  focused: boolean;
}

// (perf) Tokens come from a worker and can be a step behind the text: a
// line shows them only when they spell exactly its text, else plain text.
function tokensMatch(tokens: CodeToken[], text: string): boolean {
  let at = 0;
  for (const token of tokens) {
    if (!text.startsWith(token.content, at)) return false;
    at += token.content.length;
  }
  return at === text.length;
}

const CodeLine = memo(function CodeLine({ number, text, tokens, focused }: CodeLineProps) {
  const highlighted = tokens && tokensMatch(tokens, text);
  return (
    <span className="ecu-code-line" data-line={number} data-focused={focused || undefined}>
      {highlighted
        ? tokens.map((token, i) => (
            <span key={i} className="ecu-token" style={token.style as CSSProperties}>
              {revealInvisible(token.content)}
            </span>
          ))
        : revealInvisible(text)}
    </span>
  );
});

interface LineBlockProps {
  /** Index of the block's first line. */
  first: number;
  /** The block's lines, joined by line breaks. */
  text: string;
  /** Tokens of every line of the program. */
  tokens: readonly CodeToken[][];
  /** A span per line, with tokens; otherwise one text node. */
  detailed: boolean;
  focusedLine: number | null;
}

/**
 * The line break after a block's last line is the block's own edge, so
 * selected and copied text has one line break per line.
 */
const LineBlock = memo(
  function LineBlock({ first, text, tokens, detailed, focusedLine }: LineBlockProps) {
    if (!detailed) return <span className="ecu-code-block">{revealInvisible(text)}</span>;
    const lines = text.split("\n");
    return (
      <span className="ecu-code-block">
        {lines.map((line, i) => (
          <Fragment key={first + i}>
            {i > 0 && "\n"}
            <CodeLine number={first + i + 1} text={line} tokens={tokens[first + i]} focused={focusedLine === first + i + 1} />
          </Fragment>
        ))}
      </span>
    );
  },
  (before, after) => {
    if (before.text !== after.text || before.detailed !== after.detailed || before.first !== after.first) return false;
    if (!after.detailed) return true;
    const count = after.text.split("\n").length;
    const inBlock = (line: number | null) => line !== null && line > after.first && line <= after.first + count;
    if (before.focusedLine !== after.focusedLine && (inBlock(before.focusedLine) || inBlock(after.focusedLine))) return false;
    for (let i = after.first; i < after.first + count; i++) if (before.tokens[i] !== after.tokens[i]) return false;
    return true;
  },
);

/** Line numbers in their own column, out of the code's selected and copied text. */
const Gutter = memo(function Gutter({ from, to, blankFirst }: { from: number; to: number; blankFirst: boolean }) {
  let numbers = blankFirst ? "\n" : "";
  for (let n = from; n <= to; n++) numbers += n === to ? `${n}` : `${n}\n`;
  return (
    <span aria-hidden className="ecu-code-gutter" data-slot="execute-code-gutter">
      {numbers}
    </span>
  );
});

/**
 * How far the blocks have turned into lines: those that start before
 * `revealed`, and those that end after `keptFrom` (the tail that was on
 * screen while the code streamed).
 */
interface Reveal {
  complete: boolean;
  revealed: number;
  keptFrom: number;
}

function startReveal(complete: boolean, lineCount: number, wasStreaming: boolean): Reveal {
  if (!complete) return { complete, revealed: Number.POSITIVE_INFINITY, keptFrom: Number.POSITIVE_INFINITY };
  return {
    complete,
    revealed: BLOCK_LINES,
    keptFrom: wasStreaming ? Math.max(0, lineCount - STREAMING_TAIL_LINES) : Number.POSITIVE_INFINITY,
  };
}

export interface CodeBlockProps
  extends Omit<PaneProps, "slot" | "name" | "showName" | "labels" | "lineCount" | "foldedLines" | "open" | "onOpenChange" | "children"> {
  code: string;
  /** False while the code is still streaming in. */
  complete: boolean;
  labels: ExecuteCodeLabels;
  /** 1-based line to highlight and scroll to, e.g. from a traceback. */
  focusedLine?: number | null;
  /** Whether a long program shows more than its folded height. */
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** The program, highlighted with shiki as soon as the highlighter has loaded; plain text until then. */
export function CodeBlock({
  code: source,
  complete,
  labels,
  focusedLine = null,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  ...props
}: CodeBlockProps) {
  // A program's final line break ends its last line; it is not a line of its own.
  const code = complete && source.endsWith("\n") ? source.slice(0, -1) : source;
  const lines = code.split("\n");
  const tokens = useHighlightedLines(code, complete);
  const long = lines.length > FOLDED_LINES;
  const [expanded, setExpanded] = useControllableOpen(openProp, defaultOpen, onOpenChange);
  const preRef = useRef<HTMLPreElement>(null);
  const hidden = complete ? 0 : Math.max(0, lines.length - STREAMING_TAIL_LINES);

  const [reveal, setReveal] = useState(() => startReveal(complete, lines.length, false));
  if (reveal.complete !== complete) setReveal(startReveal(complete, lines.length, true));
  // The next block turns into lines once highlighting has reached it.
  const highlightedTo = Math.min(tokens.length, lines.length);
  useEffect(() => {
    if (reveal.revealed >= lines.length || highlightedTo <= reveal.revealed) return;
    const frame = requestAnimationFrame(() =>
      setReveal((current) => ({ ...current, revealed: current.revealed + REVEAL_BLOCKS_PER_FRAME * BLOCK_LINES })),
    );
    return () => cancelAnimationFrame(frame);
  }, [reveal, highlightedTo, lines.length]);

  // Follow the code as it arrives, and keep its end in view when it completes.
  // (perf) Scrolled in the next animation frame, where the browser lays the
  // page out anyway: reading scrollHeight in the effect itself forced a
  // layout inside React's task, the longest part of a card's first render.
  const followEnd = !complete || reveal.keptFrom !== Number.POSITIVE_INFINITY;
  useEffect(() => {
    if (!followEnd) return;
    const frame = requestAnimationFrame(() => {
      if (preRef.current) preRef.current.scrollTop = preRef.current.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [code, followEnd]);

  useEffect(() => {
    if (focusedLine === null) return;
    const line = preRef.current?.querySelector<HTMLElement>(`[data-line="${focusedLine}"]`);
    if (!line) return;
    if (long && !expanded) setExpanded(true);
    line.scrollIntoView?.({ block: "nearest" });
  }, [focusedLine, long, expanded]);

  const blocks: ReactNode[] = [];
  for (let start = hidden; start < lines.length; ) {
    const end = Math.min(lines.length, (Math.floor(start / BLOCK_LINES) + 1) * BLOCK_LINES);
    const focusedHere = focusedLine !== null && focusedLine > start && focusedLine <= end;
    blocks.push(
      <LineBlock
        key={Math.floor(start / BLOCK_LINES)}
        first={start}
        text={lines.slice(start, end).join("\n")}
        tokens={tokens}
        detailed={start < reveal.revealed || end > reveal.keptFrom || focusedHere}
        focusedLine={focusedLine}
      />,
    );
    start = end;
  }

  return (
    <Pane
      slot="execute-code-source"
      name={labels.code}
      showName={false}
      labels={labels}
      lineCount={lines.length}
      foldedLines={FOLDED_LINES}
      open={expanded}
      onOpenChange={setExpanded}
      copyText={source}
      data-complete={complete || undefined}
      {...props}
    >
      {(bodyId) => (
        <pre
          id={bodyId}
          ref={preRef}
          tabIndex={0}
          className="ecu-scroll ecu-code"
          style={{ "--ecu-gutter": `${String(lines.length).length}ch` } as CSSProperties}
        >
          <Gutter from={hidden + 1} to={lines.length} blankFirst={hidden > 0} />
          <code>
            {hidden > 0 && (
              <span className="ecu-code-block ecu-code-earlier" data-slot="execute-code-earlier">
                {labels.earlierLines(formatCount(hidden, labels.numbers))}
              </span>
            )}
            {blocks}
          </code>
        </pre>
      )}
    </Pane>
  );
}
