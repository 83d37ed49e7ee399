import { codeapiId } from "../codeapi-id.js";

/** A file a run made, held for its owner until it expires. */
export interface HeldFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

export interface HeldFileOwner {
  participantId: string;
  tenantId: string;
}

export interface RunFileHolderOptions {
  /** How long a run's files are kept after the run, or after their last read. @default 1 800 000 (30 minutes) */
  ttlMs?: number;
  /** Bytes held across all runs; past it, the oldest files of the student holding the most go first. @default 256 MiB */
  maxBytes?: number;
  /** Bytes held for one student; past it, their own oldest runs' files go, never another's. @default 32 MiB */
  maxBytesPerOwner?: number;
}

interface HeldRun {
  owner: string;
  files: Map<string, HeldFile>;
  bytes: number;
  expires: number;
}

/**
 * The files of runs whose sandbox keeps none (Jupyter kernels): held in
 * this server's memory for their owner, by a session of their own per run,
 * until they expire or the cap makes room for newer ones. Anyone but the
 * owner finds nothing, as for a file that never was.
 */
export function createRunFileHolder(options: RunFileHolderOptions = {}) {
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const maxPerOwner = options.maxBytesPerOwner ?? 32 * 1024 * 1024;
  // In insertion order: the oldest run first.
  const runs = new Map<string, HeldRun>();
  let total = 0;
  const ownerKey = (owner: HeldFileOwner) => JSON.stringify([owner.tenantId, owner.participantId]);
  const drop = (sessionId: string) => {
    const run = runs.get(sessionId);
    if (!run) return;
    total -= run.bytes;
    runs.delete(sessionId);
  };
  const sweep = (now: number) => {
    for (const [sessionId, run] of runs) if (run.expires <= now) drop(sessionId);
  };
  return {
    /** Keeps one run's files; their references, in the order given. Past the cap, older runs' files go. */
    keep<F extends HeldFile>(
      owner: HeldFileOwner,
      files: F[],
    ): Array<F & { ref: { sessionId: string; fileId: string } }> {
      const now = Date.now();
      sweep(now);
      const sessionId = codeapiId();
      const run: HeldRun = { owner: ownerKey(owner), files: new Map(), bytes: 0, expires: now + ttlMs };
      const kept = files.flatMap((file) => {
        if (run.bytes + file.bytes.length > Math.min(maxBytes, maxPerOwner)) return [];
        const fileId = codeapiId();
        run.files.set(fileId, file);
        run.bytes += file.bytes.length;
        return [{ ...file, ref: { sessionId, fileId } }];
      });
      if (!kept.length) return [];
      runs.set(sessionId, run);
      total += run.bytes;
      // The student's own oldest runs make room first; past the whole cap, anyone's oldest.
      let theirs = 0;
      for (const held of runs.values()) if (held.owner === run.owner) theirs += held.bytes;
      for (const [oldest, held] of runs) {
        if (theirs <= maxPerOwner || oldest === sessionId) break;
        if (held.owner !== run.owner) continue;
        theirs -= held.bytes;
        drop(oldest);
      }
      // Past the whole cap, the student holding the most gives way first: many students' worth
      // of one person's cookies cannot push out everyone else's files.
      while (total > maxBytes) {
        const held = new Map<string, number>();
        for (const [id, other] of runs)
          if (id !== sessionId) held.set(other.owner, (held.get(other.owner) ?? 0) + other.bytes);
        if (!held.size) break;
        const most = [...held].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
        drop([...runs].find(([id, other]) => other.owner === most && id !== sessionId)![0]);
      }
      return kept;
    },
    /** A file for its owner, or null: someone else's, expired, or never there. Its run's files stay `ttlMs` from now. */
    read(owner: HeldFileOwner, ref: { sessionId: string; fileId: string }): HeldFile | null {
      const run = runs.get(ref.sessionId);
      const now = Date.now();
      if (!run || run.expires <= now || run.owner !== ownerKey(owner)) return null;
      const file = run.files.get(ref.fileId) ?? null;
      if (file) run.expires = now + ttlMs;
      return file;
    },
  };
}

export type RunFileHolder = ReturnType<typeof createRunFileHolder>;
