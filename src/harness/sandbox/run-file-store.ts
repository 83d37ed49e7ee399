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

/**
 * The files of each run, kept in memory for `ttlMs` for the run's owner
 * only, and dropped oldest first past `maxBytes` in all.
 */
export function createRunFileStore({ ttlMs = 10 * 60_000, maxBytes = 256 * 1024 * 1024 } = {}) {
  // In insertion order: the oldest session first.
  const sessions = new Map<string, Session>();
  let total = 0;
  const drop = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    total -= session.bytes;
    sessions.delete(id);
  };
  const sweep = (now: number) => {
    for (const [id, session] of sessions) if (session.expiresAt <= now) drop(id);
    for (const id of sessions.keys()) {
      if (total <= maxBytes) break;
      drop(id);
    }
  };
  return {
    /** Keeps a run's files; answers the `files` entries for its answer. */
    put(sessionId: string, owner: string, files: RunFileOutput[]): SandboxFileEntry[] {
      if (!files.length) return [];
      const now = Date.now();
      const session: Session = { owner, expiresAt: now + ttlMs, files: new Map(), bytes: 0 };
      const entries = files.map((file) => {
        const id = randomUUID();
        session.files.set(id, { name: file.name, mediaType: file.mediaType, bytes: file.bytes });
        session.bytes += file.bytes.length;
        const dimensions = file.mediaType === "image/png" ? pngSize(file.bytes) : null;
        return {
          id,
          name: file.name,
          content_type: file.mediaType,
          size: file.bytes.length,
          ...(file.alt ? { alt: file.alt } : {}),
          ...(dimensions ?? {}),
        };
      });
      sessions.set(sessionId, session);
      total += session.bytes;
      sweep(now);
      return entries;
    },
    /** A file for its owner, while it is kept; null for anyone else, as for a file that never was. */
    get(sessionId: string, fileId: string, owner: string): StoredFile | null {
      sweep(Date.now());
      const session = sessions.get(sessionId);
      if (!session || session.owner !== owner) return null;
      return session.files.get(fileId) ?? null;
    },
  };
}
