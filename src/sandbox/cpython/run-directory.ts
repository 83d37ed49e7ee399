import { constants } from "node:fs";
import { open, opendir } from "node:fs/promises";
import { uniqueFileName } from "../../contract/file-name.js";
import { mediaTypeOfName } from "../../server/files/media-type.js";
import type { RunFileInput, RunFileOutput } from "../executor.js";

/** The caps on the files one run may leave. */
export interface RunFileCaps {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalFileBytes: number;
}

const FIGURE_NAME = /^figure-\d{1,4}\.png$/;
const MAX_ALT_CHARS = 300;

/** The file beside a run's figures with their alt text, which the run's process writes. */
export const FIGURES_NAME = ".ecu-figures.json";
/** The file the run's process writes why its program failed to (contract/failure.ts): not one of its files. */
export const FAILURE_NAME = ".ecu-failure.json";

// How much of a working directory is looked at: a run may leave thousands of files.
const MAX_ENTRIES = 10_000;
const MAX_DEPTH = 16;
// Never a link, never blocked on a FIFO.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A regular file's bytes if it has at most `limit` of them; null for anything else. */
async function readRegular(path: string | Buffer, limit: number): Promise<Buffer | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > limit) return null;
    const buffer = Buffer.alloc(Math.min(limit + 1, info.size + 1));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return bytesRead <= limit ? buffer.subarray(0, bytesRead) : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** A JSON object the run's process wrote beside the program's files; `{}` for anything else. */
async function readFacts(path: string, limit: number): Promise<Record<string, unknown>> {
  const data = await readRegular(path, limit);
  try {
    const parsed: unknown = JSON.parse(data?.toString("utf8") ?? "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * What a run left in its working directory, within the caps; the rest is
 * counted, not read. `root` is a path to that directory that this process
 * holds open (`/proc/self/fd/N`), read once every process of the run has
 * ended, so nothing in it changes while it is read. Links, FIFOs and
 * devices are skipped, never followed or opened for reading; files it was
 * `given` and left unchanged are not its own.
 */
export async function readRunFiles(
  root: string,
  caps: RunFileCaps,
  given: readonly RunFileInput[] = [],
): Promise<{ files: RunFileOutput[]; filesCut: number; failure?: Record<string, unknown> }> {
  const described = await readFacts(`${root}/${FIGURES_NAME}`, 1 << 20);
  const failure = await readFacts(`${root}/${FAILURE_NAME}`, 1 << 16);
  const before = new Map(given.map((file) => [file.name, file.bytes]));
  const names = new Set<string>();
  const tried = new Map<string, number>();
  const rootPath = Buffer.from(`${root}/`);
  const files: RunFileOutput[] = [];
  let cut = 0;
  let total = 0;
  let seen = 0;

  // Paths as bytes: a name that is not UTF-8 is opened as it is, and shown with replacement characters.
  const walk = async (relative: Buffer, depth: number): Promise<void> => {
    const entries: Array<{ name: Buffer; file: boolean; folder: boolean }> = [];
    try {
      // Node reads `encoding: "buffer"` here, though its types say otherwise.
      const listing = await opendir(Buffer.concat([rootPath, relative]), { encoding: "buffer" as BufferEncoding });
      for await (const entry of listing) {
        if (++seen > MAX_ENTRIES) break;
        const name = entry.name as unknown as Buffer;
        entries.push({ name, file: entry.isFile(), folder: entry.isDirectory() });
      }
    } catch {
      return;
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    for (const entry of entries) {
      const path = Buffer.concat([relative, entry.name]);
      const readable = path.toString("utf8");
      if (readable === FIGURES_NAME || readable === FAILURE_NAME || !entry.file) continue;
      // A name that is not UTF-8 is shown with replacement characters; two that then read alike are told
      // apart, and thousands alike cost no more than thousands of others (`tried`).
      const shown = Buffer.from(readable).equals(path) ? readable : uniqueFileName(readable, names, tried);
      names.add(shown);
      // A file it was given and left as it was is kept already: it takes none of the run's room. Not a figure
      // this run drew: one drawn alike before is still this turn's to show.
      const drawn = FIGURE_NAME.test(shown) && typeof described[shown] === "string";
      const was = drawn ? undefined : before.get(shown);
      if (was) {
        const now = await readRegular(Buffer.concat([rootPath, path]), was.length);
        if (now && Buffer.from(was).equals(now)) continue;
      }
      if (files.length >= caps.maxFiles) {
        cut++;
        continue;
      }
      const room = Math.min(caps.maxFileBytes, caps.maxTotalFileBytes - total);
      const bytes = await readRegular(Buffer.concat([rootPath, path]), room);
      if (!bytes) {
        cut++;
        continue;
      }
      total += bytes.length;
      // Alt text only for the figures the sandbox saved, and short: the program can write that file too.
      const alt = FIGURE_NAME.test(shown) ? described[shown] : undefined;
      files.push({
        name: shown,
        mediaType: mediaTypeOfName(shown),
        ...(typeof alt === "string" ? { alt: alt.replace(/[\p{Cc}\p{Cf}]/gu, " ").slice(0, MAX_ALT_CHARS) } : {}),
        bytes,
      });
    }
    if (depth < MAX_DEPTH)
      for (const entry of entries)
        if (entry.folder) await walk(Buffer.concat([relative, entry.name, Buffer.from("/")]), depth + 1);
  };

  await walk(Buffer.alloc(0), 0);
  return { files, filesCut: cut, ...(Object.keys(failure).length ? { failure } : {}) };
}
