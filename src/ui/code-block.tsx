import { memo, useEffect, useRef, useState, type CSSProperties } from "react";
import { useHighlightedLines } from "./highlight/use-highlighted-lines";
import type { CodeToken } from "./highlight/types";
import { formatCount } from "./format";
import type { ExecuteCodeLabels } from "./labels";
import { Pane } from "./pane";

/** Programs longer than this start capped in height with an expand control. */
const COLLAPSED_LINES = 24;
/** While the code streams, only its last lines are rendered: each delta then costs the same, however long the program. */
const STREAMING_TAIL_LINES = 60;

interface CodeLineProps {
  number: number;
  text: string;
  tokens: CodeToken[] | undefined;
  focused: boolean;
}

function tokensMatch(tokens: CodeToken[], text: string): boolean {
  let length = 0;
  for (const token of tokens) length += token.content.length;
  return length === text.length;
}

const CodeLine = memo(function CodeLine({ number, text, tokens, focused }: CodeLineProps) {
  const highlighted = tokens && tokensMatch(tokens, text);
  return (
    <>
      <span className="ecu-code-line" data-line={number} data-focused={focused || undefined}>
        {highlighted
          ? tokens.map((token, i) => (
              <span key={i} className="ecu-token" style={token.style as CSSProperties}>
                {token.content}
              </span>
            ))
          : text}
      </span>
      {"\n"}
    </>
  );
});

export interface CodeBlockProps {
  code: string;
  /** False while the code is still streaming in. */
  complete: boolean;
  labels: ExecuteCodeLabels;
  /** 1-based line to highlight and scroll to, e.g. from a traceback. */
  focusedLine?: number | null;
  className?: string;
}

/** The program, highlighted with shiki as soon as the highlighter has loaded; plain text until then. */
export function CodeBlock({ code, complete, labels, focusedLine = null, className }: CodeBlockProps) {
  const lines = code.split("\n");
  const tokens = useHighlightedLines(code, complete);
  const long = lines.length > COLLAPSED_LINES;
  const [expanded, setExpanded] = useState(false);
  const preRef = useRef<HTMLPreElement>(null);

  const hidden = complete ? 0 : Math.max(0, lines.length - STREAMING_TAIL_LINES);

  // Follow the code as it arrives.
  useEffect(() => {
    if (!complete && preRef.current) preRef.current.scrollTop = preRef.current.scrollHeight;
  }, [code, complete]);

  useEffect(() => {
    if (focusedLine === null) return;
    const line = preRef.current?.querySelector<HTMLElement>(`[data-line="${focusedLine}"]`);
    if (!line) return;
    if (long && !expanded) setExpanded(true);
    line.scrollIntoView?.({ block: "nearest" });
  }, [focusedLine, long, expanded]);

  return (
    <Pane
      slot="execute-code-source"
      title={labels.code}
      labels={labels}
      expandable={long}
      expanded={expanded}
      onExpandedChange={setExpanded}
      copyText={code}
      className={className}
      dataAttributes={{ "data-complete": complete || undefined }}
    >
      {(bodyId) => (
        <pre
          id={bodyId}
          ref={preRef}
          tabIndex={0}
          className="ecu-code"
          data-expanded={!long || expanded || undefined}
          style={{ "--ecu-gutter": `${String(lines.length).length + 1}ch` } as CSSProperties}
        >
          <code>
            {hidden > 0 && (
              <span className="ecu-code-earlier" data-slot="execute-code-earlier">
                {labels.earlierLines(formatCount(hidden, labels.locale))}
                {"\n"}
              </span>
            )}
            {lines.slice(hidden).map((text, i) => (
              <CodeLine
                key={hidden + i}
                number={hidden + i + 1}
                text={text}
                tokens={tokens[hidden + i]}
                focused={focusedLine === hidden + i + 1}
              />
            ))}
          </code>
        </pre>
      )}
    </Pane>
  );
}
