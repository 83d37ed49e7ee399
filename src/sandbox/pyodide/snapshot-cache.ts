import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RUN_PROGRAM_PY } from "../../contract/run-program-py.js";
import { sandboxCommand, snapshotScript, type MemoryLimits } from "./interpreter-command.js";
import type { Isolation } from "./isolation.js";

export interface Snapshot {
  path: string;
  /** Milliseconds it took to make, or null when it came from the cache. */
  madeInMs: number | null;
  /** Removes it, when it is not kept for later starts. */
  dispose(): void;
}

/** A folder only this user can write: a snapshot in it cannot be swapped under us. */
function privateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    return info.isDirectory() && (process.getuid ? info.uid === process.getuid() : true) && (info.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Changes with Pyodide, Node, or the sandbox's start-up code: a stale snapshot is never used. */
function snapshotName(pyodideDir: string): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(pyodideDir, "package.json")));
  hash.update(process.version);
  for (const file of [snapshotScript, path.join(path.dirname(snapshotScript), "pyodide-runtime.mjs")]) {
    hash.update(readFileSync(file));
  }
  hash.update(RUN_PROGRAM_PY);
  return `pyodide-${hash.digest("hex").slice(0, 16)}.snapshot`;
}

/**
 * The memory snapshot interpreters start from: Pyodide started cold once
 * (about 2 s), with the sandbox's Python prepared, before any program ran.
 * Kept in `cacheDir` (a private folder) for later starts, unless it is false.
 */
export async function prepareSnapshot(options: {
  pyodideDir: string;
  isolation: Isolation;
  memory: MemoryLimits;
  cacheDir: string | false;
  /** Stops making it (the executor closed). */
  signal?: AbortSignal;
}): Promise<Snapshot> {
  const name = snapshotName(options.pyodideDir);
  const cacheDir = options.cacheDir && privateDir(options.cacheDir) ? options.cacheDir : null;
  if (cacheDir) {
    const cached = path.join(cacheDir, name);
    try {
      if (statSync(cached).size > 0) return { path: cached, madeInMs: null, dispose: () => undefined };
    } catch {
      // Not made yet.
    }
  }
  const dir = cacheDir ?? mkdtempSync(path.join(os.tmpdir(), "execute-code-ui-"));
  const target = path.join(dir, name);
  const partial = path.join(dir, `${name}.${process.pid}.${Date.now()}.partial`);
  const started = performance.now();
  const { command, args } = sandboxCommand({
    isolation: options.isolation,
    script: snapshotScript,
    args: [options.pyodideDir, partial, RUN_PROGRAM_PY],
    readable: [`${options.pyodideDir}/`, `${path.dirname(snapshotScript)}/`],
    writable: [partial],
    memory: options.memory,
  });
  const child = spawn(command, args, {
    env: {},
    stdio: ["ignore", "ignore", "pipe"],
    signal: options.signal,
    killSignal: "SIGKILL",
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    // "exit" also follows a kill on abort.
    child.once("exit", resolve);
  });
  if (code !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`Making the Python snapshot failed (${code}): ${stderr.trim()}`);
  }
  renameSync(partial, target);
  const madeInMs = Math.round(performance.now() - started);
  return {
    path: target,
    madeInMs,
    dispose: () => (cacheDir ? undefined : rmSync(dir, { recursive: true, force: true })),
  };
}
