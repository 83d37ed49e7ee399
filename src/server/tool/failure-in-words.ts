import { oneLine } from "./one-line.js";
import type { ExecuteCodeFailure, ExecuteCodeFailureFrame } from "../../contract/failure.js";
import { explainFailure, wordsAsText } from "../../contract/explain-failure.js";

/** The traceback's frames in short: the program's own by line, a library's run of frames by its name. */
export function framesInWords(frames: readonly ExecuteCodeFailureFrame[]): string {
  const steps: string[] = [];
  for (let i = 0; i < frames.length; ) {
    const frame = frames[i]!;
    if (frame.own) {
      steps.push(`line ${frame.line} (${frame.function})`);
      i++;
      continue;
    }
    let end = i;
    while (end < frames.length && !frames[end]!.own && frames[end]!.module === frame.module) end++;
    const count = end - i;
    steps.push(`${count} ${count === 1 ? "step" : "steps"} inside ${frame.module ?? "a library"}`);
    i = end;
  }
  return steps.map(oneLine).join(" → ");
}

/**
 * Why a run failed, for the model, before the streams: the exception, the
 * failing frame's values, the frames, and the facts in plain words.
 */
export function failureInWords(failure: ExecuteCodeFailure | undefined): string[] {
  if (!failure) return [];
  const inFunction = failure.function && failure.function !== "<module>" ? ` in ${failure.function}()` : "";
  const where = failure.line ? ` at line ${failure.line}${inFunction}` : "";
  const values = (failure.values ?? []).map((each) => {
    const size = each.shape ? each.shape.join("×") : each.length !== undefined ? `length ${each.length}` : "";
    return `${each.name} = ${each.value} (${each.type}${size ? `, ${size}` : ""})`;
  });
  const words = explainFailure(failure);
  return [
    oneLine(`why it failed: ${failure.type}${where}: ${failure.message}`),
    ...(values.length ? [oneLine(`values at that line: ${values.join("; ")}`)] : []),
    ...(failure.frames?.length ? [`frames: ${framesInWords(failure.frames)}`] : []),
    ...(words ? [oneLine(`in plain words (as the student sees it): ${wordsAsText(words)}`)] : []),
  ];
}
