import { openSync, readdirSync, readFileSync } from "node:fs";
import type { StdioOptions } from "node:child_process";

const O_CLOEXEC = 0o2000000;

/**
 * This process's descriptors above 2 that a child would inherit: those
 * without close-on-exec, which Node never opens but which the process that
 * started this one may have left (a shell's, a test runner's). Linux only.
 */
export function inheritedDescriptors(): number[] {
  if (process.platform !== "linux") return [];
  let listed: string[];
  try {
    listed = readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
  return listed
    .map(Number)
    .filter((fd) => fd > 2)
    .filter((fd) => {
      try {
        const flags = /^flags:\s+([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
        return flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0;
      } catch {
        // The descriptor that listed the folder, closed since.
        return false;
      }
    });
}

let devNull: number | null = null;

/**
 * Stdio for a sandbox process: stdin and stderr as pipes, its stdout to
 * nowhere, and a pipe at fd 3 for its messages to us, which only the
 * interpreter's own code writes (what a program writes to a console device
 * reaches fd 1, never the messages). /dev/null stands
 * in the place of every descriptor it would otherwise inherit, so it holds
 * nothing of ours.
 */
export function sandboxStdio(inherited: readonly number[]): StdioOptions {
  const stdio: Array<"pipe" | "ignore" | number> = ["pipe", "ignore", "pipe", "pipe"];
  if (inherited.length === 0) return stdio;
  devNull ??= openSync("/dev/null", "r");
  for (let fd = 4; fd <= Math.max(...inherited); fd++) stdio.push(inherited.includes(fd) ? devNull : "ignore");
  return stdio;
}
