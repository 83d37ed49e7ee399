import { Fragment, memo } from "react";
import { findProgramFrames, frameReference } from "../view/traceback.js";
import { AnsiText, stripAnsi } from "./ansi.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { revealInvisible } from "./visible-text.js";
import { slotName } from "../view/slots.js";

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
  // A link's own text is the `line N` it goes to (read again from the text as shown), or there is no link.
  const links = frames.flatMap((frame) => {
    const plain = stripAnsi(lines[frame.stderrLine] ?? "");
    const ref = frameReference(plain);
    return ref?.line === frame.programLine ? [{ ...frame, plain, ref }] : [];
  });
  if (!links.length) return <AnsiText text={text} />;

  const parts = [];
  let from = 0;
  for (const { stderrLine, programLine, plain, ref } of links) {
    if (stderrLine > from) {
      parts.push(<AnsiText key={`t${from}`} text={`${lines.slice(from, stderrLine).join("\n")}\n`} />);
    }
    parts.push(
      <Fragment key={`f${stderrLine}`}>
        {revealInvisible(plain.slice(0, ref.start))}
        <button
          type="button"
          className="ecu-frame-link"
          data-slot={slotName("frame-link")}
          data-target-line={programLine}
          title={labels.goToLine(String(programLine))}
          onClick={() => onGoToLine?.(programLine)}
        >
          {plain.slice(ref.start, ref.end)}
        </button>
        {revealInvisible(plain.slice(ref.end))}
        {stderrLine < lines.length - 1 ? "\n" : ""}
      </Fragment>,
    );
    from = stderrLine + 1;
  }
  if (from < lines.length) parts.push(<AnsiText key={`t${from}`} text={lines.slice(from).join("\n")} />);
  return <>{parts}</>;
});
