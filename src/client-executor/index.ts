// execute-code-ui/client-executor: Python in the browser, for tools the
// chat's client runs itself. An entry of its own, so pages that never run
// code in the browser never load it.
export {
  createPyodideWorkerExecutor,
  type ClientExecutor,
  type ClientRunOptions,
  type PyodideWorkerExecutorOptions,
} from "./pyodide-worker-executor.js";
export { executeCodeClientTool } from "./tool-spec.js";
