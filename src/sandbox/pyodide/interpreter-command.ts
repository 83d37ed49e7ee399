import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Isolation } from "./isolation.js";

const scriptDir = path.dirname(fileURLToPath(new URL("./pyodide-process.mjs", import.meta.url)));
export const interpreterScript = path.join(scriptDir, "pyodide-process.mjs");
export const snapshotScript = path.join(scriptDir, "pyodide-snapshot.mjs");

export function pyodideDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("pyodide/package.json"));
}

/** Memory for one interpreter process. */
export interface MemoryLimits {
  /** The JavaScript heap (V8's old space), in MB. */
  jsHeapMb: number;
  /** Python's WebAssembly memory, in MB: past it, Python raises MemoryError. */
  wasmMb: number;
}

const permissionFlag = process.allowedNodeEnvironmentFlags.has("--permission")
  ? "--permission"
  : "--experimental-permission";

/**
 * The command line of a sandbox process: Node's permission model with read
 * access to `readable` only (and write access to `writable`, for the snapshot
 * maker), no JavaScript compiled from strings, capped heap and WebAssembly
 * memory, inside the isolation wrapper (namespaces, death signal).
 */
export function sandboxCommand(options: {
  isolation: Isolation;
  script: string;
  args: string[];
  readable: string[];
  writable?: string[];
  memory: MemoryLimits;
}): { command: string; args: string[] } {
  const line = [
    ...options.isolation.wrapper,
    process.execPath,
    permissionFlag,
    ...options.readable.map((p) => `--allow-fs-read=${p}`),
    ...(options.writable ?? []).map((p) => `--allow-fs-write=${p}`),
    "--disallow-code-generation-from-strings",
    `--max-old-space-size=${options.memory.jsHeapMb}`,
    `--wasm-max-mem-pages=${options.memory.wasmMb * 16}`,
    "--disable-warning=ExperimentalWarning",
    options.script,
    ...options.args,
  ];
  return { command: line[0]!, args: line.slice(1) };
}
