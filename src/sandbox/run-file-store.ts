// Over 300 lines: the files of every run and upload, kept for their owners
// with codeapi's reads (get, list, take, remove), and the one policy that
// says whose files give way when the store is full (makeRoom).
import { codeapiId } from "../server/codeapi-id.js";
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
  /** A table's header and rows in words, made once when an upload arrives. */
  summary?: string;
}

/** An owner, or which owners a caller may reach (a service's key reaches its users' files). */
export type OwnerMatch = string | ((owner: string) => boolean);

interface Session {
  owner: string;
  /** Who gives way as one when the store is full: the owner's client (many cookies of one address), or the owner. */
  holder: string;
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
   * more. Owners of one client (`put`'s `client`: many cookies from one
   * address) count as one holder here. A file for which no such room can be
   * made is not kept (and is counted as not kept).
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
  // Bytes by holder (Session.holder).
  const holders = new Map<string, number>();
  let total = 0;
  const addHeld = (holder: string, bytes: number) => {
    const held = (holders.get(holder) ?? 0) + bytes;
    if (held) holders.set(holder, held);
    else holders.delete(holder);
  };

  const dropFile = (session: Session, fileId: string) => {
    const file = session.files.get(fileId);
    if (!file) return;
    session.files.delete(fileId);
    session.bytes -= file.bytes.length;
    total -= file.bytes.length;
    owners.get(session.owner)!.bytes -= file.bytes.length;
    addHeld(session.holder, -file.bytes.length);
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

  /** A session of `owner`'s (or of an owner it accepts), while it is kept. */
  const sessionOf = (sessionId: string, owner: OwnerMatch): Session | null => {
    sweep(Date.now());
    const session = sessions.get(sessionId);
    if (!session) return null;
    return (typeof owner === "string" ? session.owner === owner : owner(session.owner)) ? session : null;
  };

  type StoredRef = { session: Session; fileId: string; size: number };
  /** Every file, oldest first, but for those of the run `except`. */
  const filesBut = (except: string): StoredRef[] =>
    [...sessions]
      .filter(([id]) => id !== except)
      .flatMap(([, session]) =>
        [...session.files].map(([fileId, file]) => ({ session, fileId, size: file.bytes.length })),
      );

  /**
   * Makes room for `size` more bytes of the run `session` (`sessionId`):
   * past its owner's cap, by dropping the owner's own oldest files (of
   * earlier runs); past the store's, by dropping the oldest file of the owner
   * who holds the most within the holder that holds the most, the run's own
   * holder and owner counted with the new file (and, where they hold as
   * much, first). A few participants, or one client's many cookies, who fill
   * the store thus never keep a newcomer's figure out nor push out the files
   * of one who holds less; students behind one address (a campus) give way
   * among themselves as before. False, with nothing dropped, when no such
   * room can be made.
   */
  const makeRoom = (session: Session, sessionId: string, size: number): boolean => {
    if (size > maxBytesPerOwner || size > maxBytes) return false;
    const planned: StoredRef[] = [];
    let totalBytes = total;
    const ownerBytes = new Map([...owners].map(([owner, own]) => [owner, own.bytes]));
    const holderBytes = new Map(holders);
    const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
    add(ownerBytes, session.owner, size);
    add(holderBytes, session.holder, size);
    if (ownerBytes.get(session.owner)! <= maxBytesPerOwner && totalBytes + size <= maxBytes) return true;
    // Every file but this run's, oldest first, by holder and owner; `order` says which is older.
    const queues = new Map<string, Map<string, Array<StoredRef & { order: number }>>>();
    filesBut(sessionId).forEach((file, order) => {
      const byOwner = queues.get(file.session.holder) ?? new Map<string, Array<StoredRef & { order: number }>>();
      queues.set(file.session.holder, byOwner);
      const queue = byOwner.get(file.session.owner) ?? [];
      byOwner.set(file.session.owner, queue);
      queue.push({ ...file, order });
    });
    /** Drops the oldest file of `owner`'s in `holder`, or in any holder. */
    const drop = (owner: string, holder?: string) => {
      const own = [...(holder === undefined ? queues.values() : [queues.get(holder) ?? new Map()])]
        .map((byOwner) => byOwner.get(owner))
        .filter((queue) => queue?.length);
      const queue = own.sort((a, b) => a![0]!.order - b![0]!.order)[0];
      const file = queue?.shift();
      if (!file) return false;
      planned.push(file);
      add(ownerBytes, owner, -file.size);
      add(holderBytes, file.session.holder, -file.size);
      totalBytes -= file.size;
      return true;
    };
    while (ownerBytes.get(session.owner)! > maxBytesPerOwner) if (!drop(session.owner)) return false;
    /** Which of `keys` holds the most by `bytes`: `first` unless another holds more. */
    const most = (keys: Iterable<string>, bytes: Map<string, number>, first: string) => {
      let chosen = first;
      for (const key of keys) if (bytes.get(key)! > bytes.get(chosen)!) chosen = key;
      return chosen;
    };
    while (totalBytes + size > maxBytes) {
      const holder = most(holderBytes.keys(), holderBytes, session.holder);
      const there = [...(queues.get(holder) ?? [])].filter(([, queue]) => queue.length).map(([owner]) => owner);
      if (!there.length) return false;
      const owner = most(there, ownerBytes, holder === session.holder ? session.owner : there[0]!);
      if (!drop(owner, holder)) return false;
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
    put(
      sessionId: string,
      owner: string,
      files: Array<RunFileOutput & { summary?: string }>,
      client?: string,
    ): { entries: SandboxFileEntry[]; notKept: number } {
      const now = Date.now();
      sweep(now);
      if (!files.length) return { entries: [], notKept: 0 };
      dropSession(sessionId);
      const holder = client === undefined ? `owner:${owner}` : `client:${client}`;
      const session: Session = { owner, holder, expiresAt: now + ttlMs, files: new Map(), bytes: 0 };
      sessions.set(sessionId, session);
      const own = owners.get(owner) ?? { bytes: 0, sessions: new Set<string>() };
      owners.set(owner, own);
      own.sessions.add(sessionId);
      const entries: SandboxFileEntry[] = [];
      let notKept = 0;
      for (const file of files) {
        const size = file.bytes.length;
        if (!makeRoom(session, sessionId, size)) {
          notKept++;
          continue;
        }
        const id = codeapiId();
        session.files.set(id, { name: file.name, mediaType: file.mediaType, bytes: file.bytes, summary: file.summary });
        session.bytes += size;
        own.bytes += size;
        addHeld(holder, size);
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
    get(sessionId: string, fileId: string, owner: OwnerMatch): StoredFile | null {
      const session = sessionOf(sessionId, owner);
      return session?.files.get(fileId) ?? null;
    },
    /** A session's files for its owner, oldest first; null for anyone else, as for a session that never was. */
    list(sessionId: string, owner: OwnerMatch): Array<{ id: string; file: StoredFile }> | null {
      const session = sessionOf(sessionId, owner);
      return session ? [...session.files].map(([id, file]) => ({ id, file })) : null;
    },
    /** Deletes a file for its owner (the session with its last file); false for anyone else, or no such file. */
    remove(sessionId: string, fileId: string, owner: OwnerMatch): boolean {
      const session = sessionOf(sessionId, owner);
      if (!session?.files.has(fileId)) return false;
      dropFile(session, fileId);
      if (!session.files.size) dropSession(sessionId);
      return true;
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
