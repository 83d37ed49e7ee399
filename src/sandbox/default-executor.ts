import { createCpythonExecutor, probeCpython, type CpythonExecutorOptions } from "./cpython/cpython-executor.js";
import type { Executor } from "./executor.js";
import { createPyodideExecutor, type PyodideExecutorOptions } from "./pyodide/pyodide-executor.js";

/** Which Python runs the programs: CPython where it can be isolated, Pyodide otherwise. */
export type SandboxEngine = "auto" | "cpython" | "pyodide";

export interface DefaultExecutorOptions {
  /** @default "auto": CPython with the scientific stack where bubblewrap and the packages exist */
  engine?: SandboxEngine;
  cpython?: CpythonExecutorOptions;
  pyodide?: PyodideExecutorOptions;
  /**
   * Told why CPython cannot run here, once at start.
   * @default console.warn
   */
  onWarning?: (message: string) => void;
}

/**
 * The sandbox's engine. CPython never runs without its isolation:
 * where bubblewrap or the kernel's namespaces are missing, "auto" falls back
 * to Pyodide and says why (at start and in `/v1/health`), and "cpython"
 * refuses to start.
 */
export function createDefaultExecutor(options: DefaultExecutorOptions = {}): Executor {
  const engine = options.engine ?? "auto";
  if (engine === "pyodide") return createPyodideExecutor(options.pyodide);
  const probe = probeCpython(options.cpython);
  if (probe.available) return createCpythonExecutor(options.cpython);
  if (engine === "cpython") throw new Error(`The CPython engine cannot run here: ${probe.reason}`);
  const warning = `The CPython engine cannot run here (${probe.reason}); programs run in Pyodide, with the standard library only. scripts/setup.sh installs what CPython needs on Debian.`;
  (options.onWarning ?? ((message: string) => console.warn(`[execute-code-ui sandbox] ${message}`)))(warning);
  const pyodide = createPyodideExecutor(options.pyodide);
  return {
    run: (request) => pyodide.run(request),
    health: () => ({ ...pyodide.health?.(), cpythonUnavailable: probe.reason }),
    close: () => pyodide.close(),
  };
}
