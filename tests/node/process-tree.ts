import { readFileSync } from "node:fs";

/** A process and all its descendants, from Linux's /proc. */
export function processTree(pid: number): number[] {
  let children: string;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
  } catch {
    return [];
  }
  return [
    pid,
    ...children
      .split(" ")
      .filter(Boolean)
      .flatMap((child) => processTree(Number(child))),
  ];
}

/** Whether a process still exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
