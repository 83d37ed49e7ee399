import { describeChatFiles, type ChatFile } from "./chat-files.js";

export interface ExecuteCodeDescriptionFacts {
  /** Packages besides the standard library, as the tool's options or the sandbox name them; null when not known yet. */
  packages?: readonly string[] | null;
  /** Whether runs get the chat's files and keep what they write (a codeapi sandbox with the chat's files). */
  keepsFiles: boolean;
  /** Whether this chat's runs share one Python session (a Jupyter kernel per chat). */
  sharesSession: boolean;
  /** The files a run gets now: the chat's, or the student's alone where runs keep none. */
  files: readonly ChatFile[];
  timeoutMs: number;
  /** The folder a program runs in, where the sandbox names one. */
  workDir?: string;
}

/** What the model reads of `execute_code`: what is available, what is kept between runs, and the files there now. */
export function describeExecuteCode(facts: ExecuteCodeDescriptionFacts): string {
  const listed = facts.files.length ? `${describeChatFiles(facts.files).join("\n")}\n` : "";
  const folder = facts.workDir ? `working directory (${facts.workDir})` : "working directory";
  return (
    `Run a Python 3 program and get back what it printed (stdout and stderr) and its exit code. ` +
    (facts.packages === null
      ? `The standard library is available, and whatever else the Python kernel has installed (an import says); `
      : facts.packages?.length
        ? `The standard library and ${facts.packages.join(", ")} are available, nothing else; `
        : `Only the standard library is available; `) +
    (facts.keepsFiles
      ? `there is no network. The program runs in a ${folder} that holds the files the student attached and the files earlier runs of this chat wrote (open them by name); files it writes stay for the next runs, and the student sees them. ` +
        (listed ? `Files there now:\n${listed}` : `There are no files there yet. `)
      : (facts.sharesSession
          ? `there is no network. `
          : `there is no network and nothing is kept between runs, so put everything the program needs in it. `) +
        // A sandbox that keeps no chat files still gets the student's own, in its working directory.
        (listed
          ? `The program's ${folder} holds the files the student attached (open them by name):\n${listed}`
          : "")) +
    (facts.sharesSession
      ? `The runs of this chat share one Python session: variables, functions, imports and the files in the working directory of earlier runs are still there, unless a stopped run did not end when interrupted or the session was idle for long, when it starts again empty. Files a run writes there are shown to the student. To restart Python (the student asks to, or the session's state is in the way), call with \`restart: true\`: that program runs in a fresh session. `
      : "") +
    `Print what you want to see. ` +
    `Runs stop after ${Math.round(facts.timeoutMs / 1000)} s.`
  );
}
