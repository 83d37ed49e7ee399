import { readFileSync } from "node:fs";

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * Resident memory of a process and all its descendants, in bytes, from
 * Linux's /proc; null where /proc cannot tell (another OS, or the process is
 * gone). The interpreter runs below setpriv and unshare, so the tree counts.
 */
export function processTreeRss(pid: number): number | null {
  const status = read(`/proc/${pid}/status`);
  if (status === null) return null;
  let total = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  const tasks = read(`/proc/${pid}/task/${pid}/children`) ?? "";
  for (const child of tasks.split(" ").filter(Boolean)) total += processTreeRss(Number(child)) ?? 0;
  return total;
}

/** Whether this machine can watch a process's memory (Linux /proc). */
export const canWatchMemory = (): boolean => read(`/proc/${process.pid}/status`) !== null;
