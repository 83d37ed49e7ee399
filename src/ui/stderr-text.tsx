import { Fragment, memo } from "react";
import { findProgramFrames } from "../view/traceback.js";
import { AnsiText, stripAnsi } from "./ansi.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { revealInvisible } from "./visible-text.js";
import { slotName } from "../view/slots.js";

const LINE_REF = /line (\d+)/;

export interface StderrTextProps {
  text: string;
  programLineCount: number;
  labels: ExecuteCodeLabels;
  onGoToLine?: (line: number) => void;
}

/**
 * stderr with the traceback frames that point into the program turned into
 * links to that line of the code block.
 */
export const StderrText = memo(function StderrText({ text, programLineCount, labels, onGoToLine }: StderrTextProps) {
  const frames = onGoToLine ? findProgramFrames(text, programLineCount) : [];
  if (!frames.length) return <AnsiText text={text} />;

  const lines = text.split("\n");
  const parts = [];
  let from = 0;
  for (const frame of frames) {
    if (frame.stderrLine > from) {
      parts.push(<AnsiText key={`t${from}`} text={`${lines.slice(from, frame.stderrLine).join("\n")}\n`} />);
    }
    const plain = stripAnsi(lines[frame.stderrLine] ?? "");
    const ref = LINE_REF.exec(plain);
    const at = ref?.index ?? plain.length;
    const refText = ref?.[0] ?? "";
    parts.push(
      <Fragment key={`f${frame.stderrLine}`}>
        {revealInvisible(plain.slice(0, at))}
        <button
          type="button"
          className="ecu-frame-link"
          data-slot={slotName("frame-link")}
          data-target-line={frame.programLine}
          title={labels.goToLine(String(frame.programLine))}
          onClick={() => onGoToLine?.(frame.programLine)}
        >
          {refText}
        </button>
        {revealInvisible(plain.slice(at + refText.length))}
        {frame.stderrLine < lines.length - 1 ? "\n" : ""}
      </Fragment>,
    );
    from = frame.stderrLine + 1;
  }
  if (from < lines.length) parts.push(<AnsiText key={`t${from}`} text={lines.slice(from).join("\n")} />);
  return <>{parts}</>;
});
