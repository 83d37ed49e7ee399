import { Fragment, memo, useState } from "react";
import { PROGRAM_FILE } from "../contract/program-file.js";
import { isFailure } from "../contract/result-guards.js";
import { findProgramFrames, frameReference, libraryName, libraryRuns } from "../view/traceback.js";
import { englishFailureLabels } from "./failure-labels.js";
import { formatCount } from "./format.js";
import { AnsiText, stripAnsi } from "./ansi.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { revealInvisible } from "./visible-text.js";
import { slotName } from "../view/slots.js";

export interface StderrTextProps {
  text: string;
  programLineCount: number;
  labels: ExecuteCodeLabels;
  onGoToLine?: (line: number) => void;
  /** Why the run failed, as the result holds it (contract/failure.ts): names the packages of a library's frames. */
  failure?: unknown;
}

/**
 * stderr with the traceback frames that point into the program turned into
 * links to that line of the code block, and each run of a library's frames
 * folded behind one line that names it ("3 steps inside json"): the
 * student's own frames lead.
 */
export const StderrText = memo(function StderrText(props: StderrTextProps) {
  const { text, labels, failure } = props;
  const facts = isFailure(failure) ? failure.frames : undefined;
  const runs = librariesIn(text, failure);
  if (!runs.length) return <LinkedText {...props} />;
  const words = { ...englishFailureLabels, ...labels.failure };
  const lines = text.split("\n");
  const parts = [];
  let from = 0;
  const until = (end: number) => `${lines.slice(from, end).join("\n")}${end < lines.length ? "\n" : ""}`;
  for (const run of runs) {
    if (run.start > from) parts.push(<LinkedText key={`t${from}`} {...props} text={until(run.start)} />);
    from = run.start;
    const file = run.files[0]!;
    const said = facts?.find((frame) => frame.file === file)?.module;
    const name = said ?? libraryName(file);
    const count = run.files.length;
    const label = words.libraryFrames(count, formatCount(count, labels.numbers), name);
    parts.push(<LibraryFrames key={`l${from}`} label={label} text={until(run.end)} />);
    from = run.end;
  }
  if (from < lines.length) parts.push(<LinkedText key={`t${from}`} {...props} text={until(lines.length)} />);
  return <>{parts}</>;
});

/** The runs of a library's frames in `text`, each folded behind one line. */
function librariesIn(text: string, failure: unknown) {
  // Where the kit's own runner said why the run failed, the program is `<program>` and every other file a
  // library's (a compiled module's `pandas/_libs/index.pyx` too).
  return libraryRuns(text, isFailure(failure) && failure.frames ? (file) => file !== PROGRAM_FILE : undefined);
}

/** Lines of `text` that StderrText folds away behind its libraries' lines: its pane does not count them as more to show. */
export function linesInLibraryFolds(text: string, failure: unknown): number {
  return librariesIn(text, failure).reduce((sum, run) => sum + run.end - run.start - 1, 0);
}

/** A run of a library's frames: one line that says whose they are, and the frames themselves behind it. */
function LibraryFrames({ label, text }: { label: string; text: string }) {
  const [open, setOpen] = useState(false);
  // `data-fold`: the card's own line, not the program's text; `data-folded`: the program's, folded.
  return (
    <>
      <span data-fold="">
        {"  "}
        <button
          type="button"
          className="ecu-library-frames"
          data-slot={slotName("library-frames")}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {label}
        </button>
        {"\n"}
      </span>
      <span data-folded="" hidden={!open}>
        <AnsiText text={text} />
      </span>
    </>
  );
}

/** Text with the frames that point into the program linked to their lines. */
function LinkedText({ text, programLineCount, labels, onGoToLine }: StderrTextProps) {
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
}
