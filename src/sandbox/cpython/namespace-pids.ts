import { readdirSync, readFileSync } from "node:fs";

const read = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** A process's children, by each process's parent: slower than the kernel's list, and never misses one. */
function scannedChildren(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    if (Number(/^PPid:\s+(\d+)$/m.exec(read(`/proc/${name}/status`) ?? "")?.[1]) === pid) children.push(Number(name));
  }
  return children;
}

/** A process's children, as the kernel lists them; by each process's parent where that list is missing. */
export function childrenOf(pid: number): number[] {
  const listed = read(`/proc/${pid}/task/${pid}/children`);
  return listed !== null ? listed.split(" ").filter(Boolean).map(Number) : scannedChildren(pid);
}

/** The PIDs a process has in each PID namespace it is in, from this one's down to its own. */
export function namespacePids(pid: number): number[] {
  const line = /^NSpid:\s+(.*)$/m.exec(read(`/proc/${pid}/status`) ?? "")?.[1];
  return line ? line.trim().split(/\s+/).map(Number) : [];
}

/**
 * The PID here of a descendant of `ancestor` (at most `depth` levels down)
 * that has `inner` as its PID in the namespace one level below this one's:
 * a process a sandbox named by its own numbering.
 */
export function hostPidOf(ancestor: number, inner: number, depth = 3): number | null {
  // The kernel's list of a process's children can miss one while its other children fork or exit (as
  // other runs' processes do, many at a time): where it finds none, /proc is read whole.
  return findBelow(ancestor, inner, depth, childrenOf) ?? findBelow(ancestor, inner, depth, scannedChildren);
}

function findBelow(ancestor: number, inner: number, depth: number, children: (pid: number) => number[]) {
  let level = [ancestor];
  for (let step = 0; step < depth && level.length; step++) {
    level = level.flatMap(children);
    const found = level.find((pid) => namespacePids(pid)[1] === inner);
    if (found !== undefined) return found;
  }
  return null;
}
