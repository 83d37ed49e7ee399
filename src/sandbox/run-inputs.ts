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
 * A given file as the run left it, looked up one segment at a time without
 * following any link: a program that put a link where a folder was gets
 * null, never a look at what the link points to (the host's files, another
 * run's). Only once every process of the run has ended, so nothing changes
 * between the steps.
 */
async function givenFileAfter(root: string, name: string) {
  if (!isRelativePath(name)) return null;
  const segments = name.split("/");
  let path = root;
  for (const [index, segment] of segments.entries()) {
    path = `${path}/${segment}`;
    const info = await lstat(path).catch(() => null);
    const last = index === segments.length - 1;
    if (!info || (last ? !info.isFile() : !info.isDirectory())) return null;
    if (last) return info;
  }
  return null;
}

/**
 * What became of a run's given files: those the program read (their access
 * time moved from the one they were given with) and those it removed (or
 * replaced with anything but a file). Read from the run's /mnt/data (`root`, a
 * path this process holds open) before anything else opens them.
 */
export async function givenFilesAfterRun(
  root: string,
  files: readonly RunFileInput[],
): Promise<{ read: string[]; removed: string[] }> {
  const read: string[] = [];
  const removed: string[] = [];
  for (const file of files) {
    const info = await givenFileAfter(root, file.name);
    if (!info) removed.push(file.name);
    else if (info.atimeMs > UNREAD_MS) read.push(file.name);
  }
  return { read, removed };
}
