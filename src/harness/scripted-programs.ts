// What the scripted tutor runs: a fenced block as written, a demo prompt's
// program, or a program over the chat's tables.
import { messageSegments } from "../view/message-segments.js";

/**
 * Plain-language prompts the demo offers, each with the program it runs;
 * `needsPackages` for a program that imports more than the standard library.
 */
export const DEMO_PROGRAMS: ReadonlyArray<{
  prompt: string;
  match: RegExp;
  title: string;
  code: string;
  needsPackages?: true;
}> = [
  {
    prompt: "Add up the numbers from 1 to 100",
    match: /1 to 100|sum/i,
    title: "Sum of 1 to 100",
    code: "total = sum(range(1, 101))\nprint(total)",
  },
  {
    prompt: "Show me a real traceback",
    match: /traceback|error/i,
    title: "The mean of an empty list",
    code: 'def mean(values):\n    return sum(values) / len(values)\n\nscores = []\nprint("scores:", scores)\nprint(mean(scores))',
  },
  {
    prompt: "Exit with code 3",
    match: /exit/i,
    title: "Leave with exit code 3",
    code: 'import sys\n\nprint("leaving early")\nsys.exit(3)',
  },
  {
    prompt: "Count slowly, printing as it goes",
    match: /slowly|as it goes|tick/i,
    title: "Count to three, slowly",
    code: 'import time\n\nfor i in range(3):\n    print("tick", i, flush=True)\n    time.sleep(1)',
  },
  {
    prompt: "Loop forever",
    match: /forever|infinite/i,
    title: "A loop that never ends",
    code: "n = 0\nwhile True:\n    n += 1",
  },
  {
    prompt: "Print a colourful report",
    match: /colou?r/i,
    title: "A report in colour",
    code: 'GREEN, RED, BOLD, RESET = "\\033[32m", "\\033[31m", "\\033[1m", "\\033[0m"\nprint(f"{BOLD}Report{RESET}")\nprint(f"{GREEN}passed: 3{RESET}")\nprint(f"{RED}failed: 1{RESET}")',
  },
  {
    prompt: "Plot the squares and save them as a CSV",
    match: /plot|figure|csv/i,
    title: "Squares: a plot and a CSV",
    needsPackages: true,
    code: [
      "import csv",
      "import matplotlib.pyplot as plt",
      "",
      "n = list(range(1, 11))",
      "squares = [k * k for k in n]",
      'with open("squares.csv", "w", newline="") as f:',
      "    csv.writer(f).writerows(zip(n, squares))",
      'plt.plot(n, squares, marker="o")',
      'plt.title("Squares")',
      'plt.xlabel("n")',
      'plt.ylabel("n squared")',
      "plt.show()",
      'print("sum of squares:", sum(squares))',
    ].join("\n"),
  },
];

/**
 * The answer to anything else: what it can do, in words that fit any app it
 * stands in. A tool that says it has only the standard library (Python in the
 * browser) is not offered the programs that need more.
 */
export const scriptedHelp = (toolDescription: string) =>
  [
    "I am a scripted stand-in for a language model, so I cannot answer questions.",
    "Send me a Python program in a ```python block and I will run it exactly as written,",
    `or ask for one of these: ${DEMO_PROGRAMS.filter(
      (demo) => !demo.needsPackages || !/only the standard library/i.test(toolDescription),
    )
      .map((demo) => `“${demo.prompt}”`)
      .join(", ")}.`,
  ].join(" ");

/** A table's name, where the kit names one to the model: an attachment ("opens it as …") or a file in the tool's description. */
const TABLE = String.raw`([^\s"'()]+\.(?:csv|tsv))`;

/** The mean of each numeric column per value of the first, printed, drawn and saved: for a student's table. */
function meanPerGroup(table: string): string {
  const read = table.endsWith(".tsv") ? `pd.read_csv("${table}", sep="\\t")` : `pd.read_csv("${table}")`;
  return [
    "import pandas as pd",
    "import matplotlib.pyplot as plt",
    "",
    `table = ${read}`,
    "key = table.columns[0]",
    "means = table.groupby(key).mean(numeric_only=True)",
    "print(means.round(2).to_string())",
    'means.to_csv("means.csv")',
    'means.plot(kind="bar", legend=False, title=f"Mean per {key}")',
    'plt.ylabel("mean")',
    "plt.show()",
  ].join("\n");
}

/** The row with the highest value of a table's first column: for a table an earlier run wrote. */
function highestIn(table: string): string {
  return [
    "import pandas as pd",
    "",
    `table = pd.read_csv("${table}", index_col=0)`,
    "column = table.columns[0]",
    "best = table[column].idxmax()",
    'print(f"{best} has the highest {column}: {table[column].max():g}")',
  ].join("\n");
}

/** A message asking for a fresh Python session, and what runs in it when the message gives no program. */
export const RESTART_REQUEST = /\brestart (?:python|the kernel|the session)\b/i;
export const RESTART_PROGRAM = 'import sys\n\nprint("Python", sys.version.split()[0], "in a fresh session")';

/**
 * The program a user message asks for: a fenced Python block as written; for
 * a table the student attached (or gave earlier: `files`, the tool's
 * description), the mean per group; for a table a run wrote, its highest
 * row; or a demo prompt's program.
 */
export function programFor(message: string, files = ""): string | null {
  // The block the student's message shows as code (ExecuteCodeMessageText), cut by the same rules: what they see runs.
  const fenced = messageSegments(message).find((segment) => segment.kind === "code");
  if (fenced) return fenced.code;
  const written = new RegExp(`^- ${TABLE} \\([^)]*written by an earlier run\\)`, "m").exec(files)?.[1];
  if (written && /highest|best|top|most/i.test(message)) return highestIn(written);
  const attached =
    new RegExp(`opens it as ${TABLE} in its working directory`).exec(message)?.[1] ??
    new RegExp(`^- ${TABLE} \\([^)]*from the student\\)`, "m").exec(files)?.[1];
  if (attached && /mean|average|plot/i.test(message)) return meanPerGroup(attached);
  return DEMO_PROGRAMS.find((demo) => demo.match.test(message))?.code ?? null;
}
