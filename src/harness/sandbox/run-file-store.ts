import { randomUUID } from "node:crypto";
import type { RunFileOutput } from "./executor.js";

/** One file in the sandbox's `/v1/exec` answer (`files`), as codeapi lists them. */
export interface SandboxFileEntry {
  id: string;
  name: string;
  content_type: string;
  size: number;
  alt?: string;
  /** A PNG's size in pixels, from its header. */
  width?: number;
  height?: number;
}

/** A PNG's width and height from its IHDR chunk; null for anything else. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((byte, i) => bytes[i] !== byte)) return null;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 24);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

interface StoredFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

interface Session {
  owner: string;
  expiresAt: number;
  files: Map<string, StoredFile>;
  bytes: number;
}

export interface RunFileStoreOptions {
  /**
   * How long files are kept after they were made, uploaded or last given to a run, in ms.
   * @default 30 minutes
   */
  ttlMs?: number;
  /**
   * Bytes of all owners' files together. Past it, room is made from the
   * files of whoever holds the most, and only while they hold more than the
   * owner who needs it would: a few participants who fill the store never
   * keep another's figure out, and nobody loses a file to someone who holds
   * more. A file for which no such room can be made is not kept (and is
   * counted as not kept).
   * @default 256 MiB
   */
  maxBytes?: number;
  /**
   * Bytes of one owner's files together (a run keeps at most 10 MB by the
   * executors' defaults). Past it the owner's own oldest files are dropped to
   * make room for their newest; a single file larger than this is not kept.
   * @default 32 MiB
   */
  maxBytesPerOwner?: number;
}

export const DEFAULT_RUN_FILE_TTL_MS = 30 * 60_000;
export const DEFAULT_RUN_FILE_STORE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_RUN_FILE_STORE_BYTES_PER_OWNER = 32 * 1024 * 1024;

/**
 * The files of each run, kept in memory for `ttlMs` for the run's owner
 * only. Each owner's files are bounded on their own (`maxBytesPerOwner`: an
 * owner past it loses their own oldest files, never anyone else's) and all
 * of them together (`maxBytes`: a file that does not fit is not kept, and
 * the run's answer counts it). Past the store's bound, whoever holds the
 * most gives way first.
 */
export function createRunFileStore({
  ttlMs = DEFAULT_RUN_FILE_TTL_MS,
  maxBytes = DEFAULT_RUN_FILE_STORE_BYTES,
  maxBytesPerOwner = DEFAULT_RUN_FILE_STORE_BYTES_PER_OWNER,
}: RunFileStoreOptions = {}) {
  // In insertion order: the oldest session first (all owners, and each owner's).
  const sessions = new Map<string, Session>();
  const owners = new Map<string, { bytes: number; sessions: Set<string> }>();
  let total = 0;

  const dropFile = (session: Session, fileId: string) => {
    const file = session.files.get(fileId);
    if (!file) return;
    session.files.delete(fileId);
    session.bytes -= file.bytes.length;
    total -= file.bytes.length;
    owners.get(session.owner)!.bytes -= file.bytes.length;
  };
  const dropSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    for (const fileId of [...session.files.keys()]) dropFile(session, fileId);
    sessions.delete(id);
    const own = owners.get(session.owner)!;
    own.sessions.delete(id);
    if (!own.sessions.size) owners.delete(session.owner);
  };
  /** A session used again lives `ttlMs` from now: it goes to the end of the order, where the newest are. */
  const touch = (id: string, session: Session, now: number) => {
    session.expiresAt = now + ttlMs;
    sessions.delete(id);
    sessions.set(id, session);
    const own = owners.get(session.owner)!.sessions;
    own.delete(id);
    own.add(id);
  };
  const sweep = (now: number) => {
    // Sessions are in the order they expire, so the first that is not expired ends the sweep.
    for (const [id, session] of sessions) {
      if (session.expiresAt > now) break;
      dropSession(id);
    }
  };

  /** An owner's files, oldest first, but for those of the run `except`. */
  const filesOf = (owner: string, except?: string) =>
    [...(owners.get(owner)?.sessions ?? [])]
      .filter((id) => id !== except)
      .flatMap((id) => {
        const session = sessions.get(id)!;
        return [...session.files].map(([fileId, file]) => ({ session, fileId, size: file.bytes.length }));
      });

  /**
   * Makes room for `size` more bytes of `owner`'s run `sessionId`: past the
   * owner's cap, by dropping the owner's own oldest files (of earlier runs);
   * past the store's, by dropping the oldest files of whoever then holds the
   * most, the owner counted with the new file (and, where they hold as much,
   * first). A few participants who fill the store thus never keep a
   * newcomer's figure out nor push out the files of one who holds less. False,
   * with nothing dropped, when no such room can be made.
   */
  const makeRoom = (owner: string, sessionId: string, size: number): boolean => {
    if (size > maxBytesPerOwner || size > maxBytes) return false;
    const planned: Array<{ session: Session; fileId: string; size: number }> = [];
    let totalBytes = total;
    const own = { bytes: owners.get(owner)!.bytes + size, files: filesOf(owner, sessionId) };
    const drop = (held: typeof own) => {
      const file = held.files.shift();
      if (!file) return false;
      planned.push(file);
      held.bytes -= file.size;
      totalBytes -= file.size;
      return true;
    };
    while (own.bytes > maxBytesPerOwner) if (!drop(own)) return false;
    const others = new Map<string, typeof own>();
    while (totalBytes + size > maxBytes) {
      let largest = own;
      for (const [other, held] of owners) {
        if (other === owner) continue;
        if (!others.has(other)) others.set(other, { bytes: held.bytes, files: filesOf(other) });
        const candidate = others.get(other)!;
        if (candidate.bytes > largest.bytes) largest = candidate;
      }
      if (!drop(largest)) return false;
    }
    for (const file of planned) {
      dropFile(file.session, file.fileId);
      if (!file.session.files.size) dropSession([...sessions].find(([, session]) => session === file.session)![0]);
    }
    return true;
  };

  return {
    /**
     * Keeps a run's files; answers the `files` entries for its answer, and
     * how many files were not kept (no room within the owner's share or the
     * store's), which the answer must count too.
     */
    put(sessionId: string, owner: string, files: RunFileOutput[]): { entries: SandboxFileEntry[]; notKept: number } {
      const now = Date.now();
      sweep(now);
      if (!files.length) return { entries: [], notKept: 0 };
      dropSession(sessionId);
      const session: Session = { owner, expiresAt: now + ttlMs, files: new Map(), bytes: 0 };
      sessions.set(sessionId, session);
      const own = owners.get(owner) ?? { bytes: 0, sessions: new Set<string>() };
      owners.set(owner, own);
      own.sessions.add(sessionId);
      const entries: SandboxFileEntry[] = [];
      let notKept = 0;
      for (const file of files) {
        const size = file.bytes.length;
        if (!makeRoom(owner, sessionId, size)) {
          notKept++;
          continue;
        }
        const id = randomUUID();
        session.files.set(id, { name: file.name, mediaType: file.mediaType, bytes: file.bytes });
        session.bytes += size;
        own.bytes += size;
        total += size;
        const dimensions = file.mediaType === "image/png" ? pngSize(file.bytes) : null;
        entries.push({
          id,
          name: file.name,
          content_type: file.mediaType,
          size,
          ...(file.alt ? { alt: file.alt } : {}),
          ...(dimensions ?? {}),
        });
      }
      if (!session.files.size) dropSession(sessionId);
      return { entries, notKept };
    },
    /** Drops a session of `owner`'s at once (an upload that could not be kept whole). */
    discard(sessionId: string, owner: string): void {
      if (sessions.get(sessionId)?.owner === owner) dropSession(sessionId);
    },
    /** A file for its owner, while it is kept; null for anyone else, as for a file that never was. */
    get(sessionId: string, fileId: string, owner: string): StoredFile | null {
      sweep(Date.now());
      const session = sessions.get(sessionId);
      if (!session || session.owner !== owner) return null;
      return session.files.get(fileId) ?? null;
    },
    /**
     * The files `refs` name, for their owner, for a run to be given; each
     * session used lives `ttlMs` longer. Anything not found (expired, pushed
     * out, another owner's, never made) is in `missing`, alike.
     */
    take<Ref extends { session_id: string; id: string }>(
      owner: string,
      refs: readonly Ref[],
    ): { found: Array<{ ref: Ref; file: StoredFile }>; missing: Ref[] } {
      const now = Date.now();
      sweep(now);
      const found: Array<{ ref: Ref; file: StoredFile }> = [];
      const missing: Ref[] = [];
      for (const ref of refs) {
        const session = sessions.get(ref.session_id);
        const file = session?.owner === owner ? session.files.get(ref.id) : undefined;
        if (!session || !file) {
          missing.push(ref);
          continue;
        }
        touch(ref.session_id, session, now);
        found.push({ ref, file });
      }
      return { found, missing };
    },
    /** Bytes kept, in all and by owner. */
    usage(): { total: number; owners: Map<string, number> } {
      return { total, owners: new Map([...owners].map(([owner, own]) => [owner, own.bytes])) };
    },
  };
}
