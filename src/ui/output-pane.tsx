"use client";

import { useState, type ReactNode } from "react";
import { windowOutput } from "../view/index.js";
import { AnsiText, stripAnsi } from "./ansi.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { Pane } from "./pane.js";

/** Output longer than this starts capped in height with an expand control. */
const COLLAPSED_LINES = 16;

export interface OutputPaneProps {
  stream: "stdout" | "stderr";
  text: string;
  /** Characters the server cut from this stream. */
  truncatedChars?: number;
  labels: ExecuteCodeLabels;
  /** Renders a piece of the text; defaults to ANSI-coloured text. */
  renderText?: (text: string) => ReactNode;
  className?: string;
}

/** One output stream in its own labelled region, with copy, expand and "show all" for very long output. */
export function OutputPane({ stream, text, truncatedChars = 0, labels, renderText, className }: OutputPaneProps) {
  const [expanded, setExpanded] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const title = stream === "stdout" ? labels.stdout : labels.stderr;
  const render = renderText ?? ((t: string) => <AnsiText text={t} />);
  const shown = showAll ? ({ kind: "whole", text } as const) : windowOutput(text);
  const long = text.split("\n", COLLAPSED_LINES + 1).length > COLLAPSED_LINES || text.length > 4000;
  const empty = text.length === 0;

  return (
    <Pane
      slot={`execute-code-${stream}`}
      title={title}
      labels={labels}
      expandable={long}
      expanded={expanded}
      onExpandedChange={setExpanded}
      copyText={empty ? undefined : () => stripAnsi(text)}
      className={className}
      dataAttributes={{ "data-empty": empty || undefined }}
    >
      {(bodyId) => (
        <>
          {empty ? (
            <p className="ecu-empty">{stream === "stdout" ? labels.emptyStdout : labels.emptyStderr}</p>
          ) : (
            <pre id={bodyId} tabIndex={0} className="ecu-output" data-expanded={!long || expanded || undefined}>
              {shown.kind === "whole" ? (
                render(shown.text)
              ) : (
                <>
                  {render(shown.head)}
                  {"\n"}
                  <span className="ecu-hidden-marker" data-slot="execute-code-hidden">
                    {shown.hiddenLines > 0
                      ? labels.hiddenLines(formatCount(shown.hiddenLines, labels.numbers))
                      : labels.hiddenCharacters(formatCount(shown.hiddenChars, labels.numbers))}{" "}
                    <button type="button" className="ecu-text-button" onClick={() => setShowAll(true)}>
                      {labels.showAll}
                    </button>
                  </span>
                  {"\n"}
                  {render(shown.tail)}
                </>
              )}
            </pre>
          )}
          {truncatedChars > 0 && (
            <p className="ecu-notice" data-slot="execute-code-truncated">
              {labels.truncated(title, formatCount(truncatedChars, labels.numbers))}
            </p>
          )}
        </>
      )}
    </Pane>
  );
}
