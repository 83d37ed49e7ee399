// Where the demo's programs run: the server's sandbox, or Pyodide in this page.
import { AuiConfig, Tools } from "@assistant-ui/react";
import { executeCodeToolkit, makeExecuteCodeToolkit } from "../../assistant-ui/index.js";
import { createPyodideWorkerExecutor, type ClientExecutor } from "../../client-executor/index.js";
import { askBeforeRunning, type RunWhere } from "./demo-chats.js";

// Python in this page, in a Web Worker, loaded once a chat runs code in the browser.
let executor: ClientExecutor | null = null;
export const pageExecutor = () => (executor ??= createPyodideWorkerExecutor());

// How many programs this page is running now: the composer shows Stop while one runs.
let runningHere = 0;
const runListeners = new Set<() => void>();
const ranOne = (by: 1 | -1) => {
  runningHere += by;
  for (const listener of runListeners) listener();
};
/** For `useSyncExternalStore`: the count of programs running in this page. */
export const pageRuns = {
  subscribe(listener: () => void) {
    runListeners.add(listener);
    return () => void runListeners.delete(listener);
  },
  count: () => runningHere,
};

const browserExecutor = {
  async run(code: string, options?: Parameters<ClientExecutor["run"]>[1]) {
    ranOne(1);
    try {
      return await pageExecutor().run(code, options);
    } finally {
      ranOne(-1);
    }
  },
  get timeoutMs() {
    return pageExecutor().timeoutMs;
  },
};

export const configs: Record<RunWhere, AuiConfig> = {
  server: AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) }),
  browser: AuiConfig({
    tools: Tools({
      toolkit: makeExecuteCodeToolkit({
        execution: "client",
        executor: browserExecutor,
        askBeforeRunning: () => askBeforeRunning.current,
        labels: { approvalQuestion: "Run this Python program in this browser?" },
      }),
    }),
  }),
};
