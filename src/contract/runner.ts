import type { ExecuteCodeResult } from "./result.js";

export interface ExecuteCodeRunOptions {
  /** Stops the run: the program is ended and the result keeps what it printed. */
  signal?: AbortSignal;
  /** Each piece of output as the program writes it. */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
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
}
