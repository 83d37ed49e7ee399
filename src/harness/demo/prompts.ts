// The demo's example prompts; the scripted model maps each to a program.
export const DEMO_PROMPTS = [
  "Add up the numbers from 1 to 100",
  "Show me a real traceback",
  "Exit with code 3",
  "Count slowly, printing as it goes",
  "Loop forever",
  "Print a colourful report",
  "Plot the squares and save them as a CSV",
];

/** Examples the browser's Python cannot run: Pyodide here has no matplotlib (its packages are not downloaded). */
export const SERVER_ONLY_PROMPTS: ReadonlySet<string> = new Set(["Plot the squares and save them as a CSV"]);
