"use client";

// Over 300 lines: the code pane is one component whose parts (gutter, line
// blocks, the streaming reveal, the fold) share its render state; each
// helper is local to it and small.

import { Fragment, memo, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { pythonLines } from "../view/python-lines.js";
import { useHighlightedLines } from "./highlight/use-highlighted-lines.js";
import type { CodeToken } from "./highlight/types.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { folds, Pane, type PaneProps } from "./pane.js";
import { useControllableOpen } from "./use-controllable.js";
import { ScrollingPre } from "./scrolling-pre.js";
import { revealInvisible } from "./visible-text.js";
import { useLazyResource } from "./lazy-resource.js";
import { runResultParts } from "./run-result-parts.js";
import { slotName } from "../view/slots.js";

/** Programs longer than this start folded, with "Show more" under them. */
const FOLDED_LINES = 16;
/**
 * A card that mounts while its code streams shows the last lines of it as
 * lines at once; lines that arrive later are rendered as lines as they come.
 */
const TAIL_AT_MOUNT = 60;
/**
 * Lines are rendered in blocks of this many, each its own block box, so a
 * change to one block lays out that block alone. A block that was there when
 * the card mounted starts as one text node and becomes a span per line, with
 * its tokens, a few blocks per frame from the top: a long program as
 * thousands of token spans in one commit would stall the page, and a plain
 * text node costs a fraction of a span per line. Lines that stream in later
 * are spans from the start, so a streamed program is all lines, highlighted,
 * by the time it is complete.
 */
const BLOCK_LINES = 50;
/**
 * (perf) Blocks that turn into lines in one frame: two cost about 10 ms of
 * rendering and as much of layout on a busy two-core machine, well inside a
 * frame's budget, and halve the time until the whole program is highlighted.
 */
const REVEAL_BLOCKS_PER_FRAME = 2;

/** A program marks every character that changes how Python reads a line or that a terminal would hide (a form feed, a bidi control). */
const IN_CODE = { code: true };

/**
 * The failing line with what Python's carets point at marked and the values
 * beside it (from the run-result chunk, with the facts of why the run
 * failed); null where the facts do not mark this line, which is then marked
 * whole.
 */
export type MarkFailure = (
  pieces: readonly { content: string; style?: CodeToken["style"] }[],
  text: string,
  line: number,
) => ReactNode | null;

interface CodeLineProps {
  number: number;
  text: string;
  tokens: CodeToken[] | undefined;
  focused: boolean;
  /** The line a failed run raised its exception on. */
  failed: boolean;
  mark: MarkFailure | undefined;
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

const CodeLine = memo(function CodeLine({ number, text, tokens, focused, failed, mark }: CodeLineProps) {
  const highlighted = tokens && tokensMatch(tokens, text);
  const marked = (failed && mark?.(highlighted ? tokens : [{ content: text }], text, number)) || null;
  return (
    <span
      className="ecu-code-line"
      data-line={number}
      data-focused={focused || undefined}
      data-error={failed || undefined}
    >
      {marked ??
        (highlighted
          ? tokens.map((token, i) => (
              <span key={i} className="ecu-token" style={token.style as CSSProperties}>
                {revealInvisible(token.content, IN_CODE)}
              </span>
            ))
          : revealInvisible(text, IN_CODE))}
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
  errorLine: number | null;
  mark: MarkFailure | undefined;
}

/**
 * The line break after a block's last line is the block's own edge, so
 * selected and copied text has one line break per line. No block but the
 * last ends in a blank line (see `blockStarts`): selection adds no line
 * break at an edge after one, innerText does, and the line drew no height.
 */
const LineBlock = memo(
  function LineBlock({ first, text, tokens, detailed, focusedLine, errorLine, mark }: LineBlockProps) {
    if (!detailed) return <span className="ecu-code-block">{revealInvisible(text, IN_CODE)}</span>;
    const lines = text.split("\n");
    return (
      <span className="ecu-code-block">
        {lines.map((line, i) => (
          <Fragment key={first + i}>
            {i > 0 && "\n"}
            <CodeLine
              number={first + i + 1}
              text={line}
              tokens={tokens[first + i]}
              focused={focusedLine === first + i + 1}
              failed={errorLine === first + i + 1}
              mark={mark}
            />
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
    const moved = (line: "focusedLine" | "errorLine") =>
      before[line] !== after[line] && (inBlock(before[line]) || inBlock(after[line]));
    if (moved("focusedLine") || moved("errorLine")) return false;
    if (before.mark !== after.mark && inBlock(after.errorLine)) return false;
    for (let i = after.first; i < after.first + count; i++) if (before.tokens[i] !== after.tokens[i]) return false;
    return true;
  },
);

/**
 * Where each block of lines starts: at every BLOCK_LINES lines, moved up
 * over the blank lines just before, so that a blank line opens the next
 * block instead of ending one. Only finished lines decide it, so a block's
 * start does not move while the code streams.
 */
function blockStarts(lines: readonly string[]): number[] {
  const starts = [0];
  for (let nominal = BLOCK_LINES; nominal < lines.length; nominal += BLOCK_LINES) {
    let start = nominal;
    while (start - 1 > nominal - BLOCK_LINES && lines[start - 1] === "") start--;
    starts.push(start);
  }
  return starts;
}

/** Line numbers in their own column, out of the code's selected and copied text. */
const Gutter = memo(function Gutter({ lines }: { lines: number }) {
  let numbers = "";
  for (let n = 1; n <= lines; n++) numbers += n === lines ? `${n}` : `${n}\n`;
  return (
    // (perf) The width goes on the gutter alone: a custom property set on the
    // code would restyle every token below it when the count gains a digit.
    <span
      aria-hidden
      className="ecu-code-gutter"
      data-slot={slotName("gutter")}
      style={{ "--ecu-gutter": `${String(lines).length}ch` } as CSSProperties}
    >
      {numbers}
    </span>
  );
});

/**
 * Which blocks are a span per line: those that start before `revealed`, and
 * those from `liveFrom` on (a multiple of BLOCK_LINES, compared with a
 * block's place before `blockStarts` moves it over blank lines): the lines
 * that streamed in after the card mounted, and the tail in view then.
 */
interface Reveal {
  revealed: number;
  liveFrom: number;
}

function startReveal(complete: boolean, lineCount: number): Reveal {
  const tail = Math.max(0, lineCount - TAIL_AT_MOUNT);
  return { revealed: BLOCK_LINES, liveFrom: complete ? Number.POSITIVE_INFINITY : tail - (tail % BLOCK_LINES) };
}

export interface CodeBlockProps
  extends Omit<
    PaneProps,
    "slot" | "name" | "labels" | "lineCount" | "foldedLines" | "open" | "onOpenChange" | "children"
  > {
  /**
   * Lines a long program shows folded.
   * @default 16
   */
  foldedLines?: number;
  code: string;
  /** False while the code is still streaming in. */
  complete: boolean;
  labels: ExecuteCodeLabels;
  /** 1-based line to highlight and scroll to, e.g. from a traceback. */
  focusedLine?: number | null;
  /** 1-based line a failed run raised its exception on: marked from the start, without scrolling. */
  errorLine?: number | null;
  /** Why the run failed, as its result holds it (contract/failure.ts): the span to mark on that line, its values. */
  failure?: unknown;
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
  errorLine = null,
  failure,
  foldedLines = FOLDED_LINES,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  ...props
}: CodeBlockProps) {
  // The lines Python runs: a lone carriage return breaks a line too
  // (`x = 1  # note\rimport os` is a comment, then code). A program's final
  // line break ends its last line; it is not a line of its own.
  const lines = pythonLines(source);
  if (complete && lines.length > 1 && lines.at(-1) === "") lines.pop();
  // What the highlighter reads and the view follows: those lines, each break a "\n".
  const code = lines.join("\n");
  const tokens = useHighlightedLines(code, complete);
  const markFailure = useLazyResource(runResultParts, errorLine !== null && failure != null)?.markFailure;
  const mark = useMemo<MarkFailure | undefined>(
    () =>
      markFailure && failure != null ? (pieces, text, line) => markFailure(pieces, text, line, failure) : undefined,
    [markFailure, failure],
  );
  const long = folds(lines.length, foldedLines);
  const [expanded, setExpanded] = useControllableOpen(openProp, defaultOpen, onOpenChange);

  const [reveal, setReveal] = useState(() => startReveal(complete, lines.length));
  // A card that mounted complete and streams again (its arguments replaced) renders the new lines as they come.
  if (!complete && reveal.liveFrom === Number.POSITIVE_INFINITY)
    setReveal({ ...reveal, liveFrom: startReveal(false, lines.length).liveFrom });
  // The next block turns into lines once highlighting has reached it.
  const highlightedTo = Math.min(tokens.length, lines.length);
  useEffect(() => {
    if (reveal.revealed >= Math.min(lines.length, reveal.liveFrom) || highlightedTo <= reveal.revealed) return;
    const frame = requestAnimationFrame(() =>
      setReveal((current) => ({ ...current, revealed: current.revealed + REVEAL_BLOCKS_PER_FRAME * BLOCK_LINES })),
    );
    return () => cancelAnimationFrame(frame);
  }, [reveal, highlightedTo, lines.length]);

  // A card that mounted while its code streams follows the code's end; once
  // complete, the program reads from its first line. (perf) In the next animation frame: in the commit,
  // reading the height forced a layout inside React's task, the longest part
  // of a card's first render.
  const streamed = reveal.liveFrom !== Number.POSITIVE_INFINITY;
  const codeRef = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (focusedLine === null) return;
    const pre = codeRef.current;
    const line = pre?.querySelector<HTMLElement>(`[data-line="${focusedLine}"]`);
    if (!pre || !line) return;
    if (long && !expanded) setExpanded(true);
    // Down to the line, never sideways: the line numbers stay beside their lines.
    const offset = line.getBoundingClientRect().top - pre.getBoundingClientRect().top;
    if (offset < 0 || offset > pre.clientHeight - line.offsetHeight) pre.scrollTop += offset - pre.clientHeight / 3;
    pre.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [focusedLine, long, expanded, codeRef, setExpanded]);

  const starts = blockStarts(lines);
  const blocks: ReactNode[] = starts.map((start, index) => {
    const end = starts[index + 1] ?? lines.length;
    const here = (line: number | null) => line !== null && line > start && line <= end;
    const focusedHere = here(focusedLine) || here(errorLine);
    return (
      <LineBlock
        key={index}
        first={start}
        text={lines.slice(start, end).join("\n")}
        tokens={tokens}
        detailed={start < reveal.revealed || index * BLOCK_LINES >= reveal.liveFrom || focusedHere}
        focusedLine={focusedLine}
        errorLine={errorLine}
        mark={mark}
      />
    );
  });

  return (
    <Pane
      slot={slotName("source")}
      name={labels.code}
      labels={labels}
      lineCount={lines.length}
      foldedLines={foldedLines}
      open={expanded}
      onOpenChange={setExpanded}
      copyText={source}
      data-complete={complete || undefined}
      {...props}
    >
      {(bodyId, nameId) => (
        <ScrollingPre
          id={bodyId}
          labelledBy={nameId}
          elementRef={codeRef}
          follow={streamed && !complete}
          followed={code}
          followInFrame
          // What can widen a line without resizing the pane: colours and the failing line's values as they come.
          measureKey={`${code.length} ${expanded} ${tokens.length} ${reveal.revealed} ${focusedLine}`}
          className="ecu-code"
        >
          <Gutter lines={lines.length} />
          <code>{blocks}</code>
        </ScrollingPre>
      )}
    </Pane>
  );
}
