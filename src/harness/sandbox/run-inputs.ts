import { lstat } from "node:fs/promises";
import type { RunFileInput } from "./executor.js";

/** The access time a run gives each of its given files before its program starts (the zygote's UNREAD_NS). */
const UNREAD_MS = 1000;

/** A path under the working directory that cannot leave it: relative, no `.` or `..`, no empty or NUL segment. */
export function isRelativePath(name: string): boolean {
  const segments = name.split("/");
  return segments.every((segment) => segment && segment !== "." && segment !== ".." && !segment.includes("\0"));
}

/**
 * Which given files the program read: those whose access time moved from
 * the one they were given with. Read from the run's /work (`root`, a path
 * this process holds open) before anything else opens them.
 */
export async function filesOpened(root: string, files: readonly RunFileInput[]): Promise<string[]> {
  const opened: string[] = [];
  for (const file of files) {
    const info = await lstat(`${root}/${file.name}`).catch(() => null);
    if (info?.isFile() && info.atimeMs > UNREAD_MS) opened.push(file.name);
  }
  return opened;
}
