import { bytesInWords } from "../../contract/bytes-in-words.js";
import { readFailure } from "../../contract/failure.js";
import { type ExecuteCodeRunFile, normalizeExecuteCodeResult, RUN_STOPPED } from "../../contract/index.js";
import { streamsInWords } from "../../contract/streams-in-words.js";
import { failureInWords } from "./failure-in-words.js";
import { nameInWords } from "./name-in-words.js";
import { oneLine } from "./one-line.js";

/** The files in words (the student sees them under the card); never their bytes. */
function files(list: ExecuteCodeRunFile[] | undefined, cut = 0): string[] {
  const notKept = cut
    ? [
        `[${cut} ${cut === 1 ? "file" : "files"} the program left ${cut === 1 ? "was" : "were"} not kept (past the code runner's limits on files), so the student cannot see or download ${cut === 1 ? "it" : "them"}]`,
      ]
    : [];
  if (!list?.length) return notKept;
  return [
    `files (shown to the student under the output):`,
    ...list.map((file) =>
      file.kind === "image"
        ? `- figure ${nameInWords(file.name)} (${file.mediaType}, ${bytesInWords(file.size)})${file.alt ? `, described by the program as ${JSON.stringify(oneLine(file.alt))}` : ""}`
        : `- file ${nameInWords(file.name)} (${file.mediaType}, ${bytesInWords(file.size)}), offered for download`,
    ),
    ...notKept,
  ];
}

/** The Python session the run had, where the sandbox keeps one per chat. */
function session(result: { continued?: boolean; restarted?: boolean }): string[] {
  if (result.continued) return ["python session: continued from this chat's earlier runs (their variables were there)"];
  if (result.restarted) return ["python session: restarted as asked (earlier runs' variables were gone)"];
  return [];
}

/** Which given files the program read, and which were gone before it ran. */
function inputs(result: { filesUsed?: string[]; filesGone?: string[] }): string[] {
  return [
    ...(result.filesUsed?.length ? [`files the program read: ${result.filesUsed.map(nameInWords).join(", ")}`] : []),
    ...(result.filesGone?.length
      ? [
          `[not in the working directory, because the code runner no longer keeps them: ${result.filesGone.map(nameInWords).join(", ")}. Tell the student; a file of theirs must be attached again, one a run wrote made again]`,
        ]
      : []),
  ];
}

/** How the model is told of a run stopped at its time limit: the first words of that line. */
export const TIMED_OUT = "The program was stopped because it ran longer than";

/** The result as the model reads it: plain text, the code runner's facts first and the program's output last. */
export function describeModelOutput(output: unknown): string {
  const result = normalizeExecuteCodeResult(output);
  switch (result.status) {
    case "completed": {
      const exit = result.signal ? `killed by ${result.signal}` : `exit code: ${result.exitCode ?? "unknown"}`;
      return [
        exit,
        ...failureInWords(readFailure(result.failure)),
        ...session(result),
        ...files(result.files, result.filesCut),
        ...inputs(result),
        ...streamsInWords(result),
      ].join("\n");
    }
    case "timeout":
      return [
        `${TIMED_OUT} ${result.timeoutMs === null ? "the time limit" : `${result.timeoutMs / 1000} s`} (an endless loop or too much work).`,
        ...session(result),
        ...files(result.files, result.filesCut),
        ...inputs(result),
        "Its output up to then:",
        ...streamsInWords(result),
      ].join("\n");
    case "busy":
      return `The code runner is busy and did not run the program.${result.retryAfterMs === null ? "" : ` It can take another run in ${Math.ceil(result.retryAfterMs / 1000)} s.`} Tell the student, and do not guess the output.`;
    case "error":
      // Stopped while it ran: the message says so, with what it printed last (client-run.ts).
      if (result.code === RUN_STOPPED) return result.message;
      return `The program did not run: ${result.message} (${result.code}). Do not guess its output.`;
    case "running":
      // Never the final answer; said plainly should a host hand it to a model anyway.
      return ["The program is still running. Output so far:", ...streamsInWords(result)].join("\n");
    case "unrecognised":
      return `The tool returned an unexpected result: ${JSON.stringify(result.raw)}`;
  }
}
