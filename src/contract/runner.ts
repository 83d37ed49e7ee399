import type { ExecuteCodeResult } from "./result.js";

export interface ExecuteCodeRunOptions {
  /** Stops the run: the program is ended and the result keeps what it printed. */
  signal?: AbortSignal;
  /** Each piece of output as the program writes it. */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
  /** The program starts now (what runs it has loaded), at `startedAt` ms since the epoch: its clock and limit count from here. */
  onStart?: (startedAt: number) => void;
}

/**
 * Runs a program where the chat's client is (a page, a worker, a bot) and
 * answers with the kit's result: `createPyodideWorkerExecutor()` from
 * `execute-code-ui/client-executor`, or your own. The card's client runs
 * take any.
 */
export interface ExecuteCodeRunner {
  run(code: string, options?: ExecuteCodeRunOptions): Promise<ExecuteCodeResult>;
  /** The longest a run may take, shown beside the card's clock. */
  readonly timeoutMs?: number;
  /**
   * Whether `run` calls `onStart` when the program starts, after loading
   * what runs it (Python, in the browser): until then the card says Python
   * is starting, and its clock waits.
   */
  readonly reportsStart?: boolean;
}
