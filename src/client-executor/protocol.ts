/** Messages between the page and the Pyodide worker. */

export interface RunMessage {
  type: "run";
  code: string;
  /** Where the app serves Pyodide's files (pyodide.mjs, the wasm, the standard library). */
  indexURL: string;
}

export type WorkerMessage =
  | { type: "ready" }
  /** Pyodide is loaded and the program starts now: its time limit counts from here. */
  | { type: "started" }
  | { type: "output"; stream: "stdout" | "stderr"; text: string }
  /** `failure`: why the program failed (contract/failure.ts), where it raised; checked by the page. */
  | { type: "done"; exitCode: number; wallTimeMs: number; failure?: unknown }
  | { type: "failed"; message: string };

export type WarmMessage = { type: "warm"; indexURL: string };
