import { mkdirSync } from "node:fs";
import path from "node:path";
import { chatSchema } from "./chat-schema.js";
import type { ChatStatus } from "./status.js";
import { chatData, chatFromRow, replaceValues, summaryFromRow, type ChatRecord, type ChatStore } from "./store.js";

export interface SqliteChatStoreOptions {
  /**
   * The database file, or `":memory:"` (for tests).
   * @default `chats.sqlite` in `dataDir`
   */
  path?: string;
  /**
   * The folder for the database file; made when missing.
   * @default `./data`
   */
  dataDir?: string;
  /**
   * How long a write waits for another process's lock on the file.
   * @default 5 000 ms
   */
  busyTimeoutMs?: number;
}

/** Expired chats deleted in one turn of the event loop. */
const PURGE_BATCH = 10;

const SCHEMA = chatSchema({ integer: "INTEGER", flag: "INTEGER NOT NULL DEFAULT 0" });

type Row = Parameters<typeof chatFromRow>[0];

/**
 * Chats in SQLite through Node's built-in `node:sqlite` (Node 22.13 or
 * later; no native addon to build): one file, so a restart loses nothing.
 * Several processes may share the file; each write is one conditional
 * UPDATE, so the first of two racing writes wins.
 */
export async function createSqliteChatStore(options: SqliteChatStoreOptions = {}): Promise<ChatStore> {
  // Loaded here, not at the top: importing the server entry must not need node:sqlite.
  const { DatabaseSync } = await import("node:sqlite");
  let file = options.path;
  if (file === undefined) {
    const dir = path.resolve(options.dataDir ?? "data");
    mkdirSync(dir, { recursive: true });
    file = path.join(dir, "chats.sqlite");
  }
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  if (file !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
  db.exec(SCHEMA);

  const insert = db.prepare(
    "INSERT OR IGNORE INTO ecu_chats (owner, id, status, version, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const select = db.prepare("SELECT * FROM ecu_chats WHERE owner = ? AND id = ?");
  const selectHead = db.prepare("SELECT status, version, updated_at FROM ecu_chats WHERE owner = ? AND id = ?");
  const update = db.prepare(
    "UPDATE ecu_chats SET status = ?, version = ?, data = ?, updated_at = ? WHERE owner = ? AND id = ? AND status = ? AND version = ?",
  );
  const list = db.prepare(
    "SELECT c.id, c.status, c.created_at, c.updated_at, m.title, m.archived FROM ecu_chats c LEFT JOIN ecu_chat_meta m ON m.owner = c.owner AND m.id = c.id WHERE c.owner = ? ORDER BY c.updated_at DESC, c.id LIMIT ?",
  );
  const exists = db.prepare("SELECT 1 FROM ecu_chats WHERE owner = ? AND id = ?");
  // One statement sets only the columns a change names, so a rename and an archive at once both stay.
  const upsertMeta = db.prepare(
    "INSERT INTO ecu_chat_meta (owner, id, title, archived) VALUES (?, ?, ?, ?) ON CONFLICT (owner, id) DO UPDATE SET " +
      "title = CASE WHEN ? THEN excluded.title ELSE ecu_chat_meta.title END, archived = CASE WHEN ? THEN excluded.archived ELSE ecu_chat_meta.archived END",
  );
  const nameMeta = db.prepare(
    "INSERT INTO ecu_chat_meta (owner, id, title, archived) VALUES (?, ?, ?, 0) ON CONFLICT (owner, id) DO UPDATE SET title = excluded.title WHERE ecu_chat_meta.title IS NULL",
  );
  const deleteChat = db.prepare("DELETE FROM ecu_chats WHERE owner = ? AND id = ?");
  const deleteMeta = db.prepare("DELETE FROM ecu_chat_meta WHERE owner = ? AND id = ?");
  const touch = db.prepare(
    "UPDATE ecu_chats SET updated_at = ? WHERE owner = ? AND id = ? AND version = ? AND status = 'running'",
  );
  const usage = db.prepare(
    "SELECT COALESCE(SUM(LENGTH(CAST(data AS BLOB))), 0) AS bytes FROM ecu_chats WHERE owner = ?",
  );
  // The pages in use, not a sum over every chat: O(1), however much is stored (a sum would read it all, on the one thread).
  const totalUsage = db.prepare(
    "SELECT ((SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM pragma_freelist_count())) * (SELECT page_size FROM pragma_page_size()) AS bytes",
  );
  // Found by the index, a few at a time: each chat's pages are freed as it goes.
  const expired = db.prepare(`SELECT owner, id FROM ecu_chats WHERE updated_at < ? LIMIT ${PURGE_BATCH}`);
  const insertSecret = db.prepare("INSERT OR IGNORE INTO ecu_secrets (name, value) VALUES (?, ?)");
  const selectSecret = db.prepare("SELECT value FROM ecu_secrets WHERE name = ?");
  let open = true;

  return {
    async insert(chat: ChatRecord) {
      const result = insert.run(
        chat.owner,
        chat.id,
        chat.status,
        chat.version,
        chatData(chat),
        chat.createdAt,
        chat.updatedAt,
      );
      return Number(result.changes) === 1;
    },
    async get(owner, id) {
      const row = select.get(owner, id) as Row | undefined;
      return row ? chatFromRow(row) : null;
    },
    async replace(expected, next) {
      const result = update.run(...replaceValues(expected, next));
      return Number(result.changes) === 1;
    },
    async list(owner, { limit }) {
      return (list.all(owner, limit) as Parameters<typeof summaryFromRow>[0][]).map(summaryFromRow);
    },
    async setListing(owner, id, { ifUntitled, ...change }) {
      if (!exists.get(owner, id)) return false;
      if (ifUntitled) {
        nameMeta.run(owner, id, change.title ?? null);
        return true;
      }
      upsertMeta.run(
        owner,
        id,
        change.title ?? null,
        Number(change.archived ?? false),
        Number(change.title !== undefined),
        Number(change.archived !== undefined),
      );
      return true;
    },
    async remove(owner, id) {
      deleteMeta.run(owner, id);
      return Number(deleteChat.run(owner, id).changes) === 1;
    },
    async head(owner, id) {
      const row = selectHead.get(owner, id) as { status: ChatStatus; version: number; updated_at: number } | undefined;
      return row
        ? { owner, id, status: row.status, version: Number(row.version), updatedAt: Number(row.updated_at) }
        : null;
    },
    async touch(chat, at) {
      touch.run(at, chat.owner, chat.id, chat.version);
    },
    async usage(owner) {
      return Number((usage.get(owner) as { bytes: number | bigint }).bytes);
    },
    async totalUsage() {
      return Number((totalUsage.get() as { bytes: number | bigint }).bytes);
    },
    async purge(before) {
      let purged = 0;
      for (;;) {
        if (!open) return purged;
        const rows = expired.all(before) as Array<{ owner: string; id: string }>;
        db.exec("BEGIN");
        try {
          for (const { owner, id } of rows) {
            deleteMeta.run(owner, id);
            deleteChat.run(owner, id);
          }
          db.exec("COMMIT");
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
        purged += rows.length;
        if (rows.length < PURGE_BATCH) return purged;
        // The next few on a later turn: a large store's expired chats deleted at once held the thread for a second.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async secret(name) {
      insertSecret.run(name, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"));
      const row = selectSecret.get(name) as { value: string };
      return new Uint8Array(Buffer.from(row.value, "base64"));
    },
    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
