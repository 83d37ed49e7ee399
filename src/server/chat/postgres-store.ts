import { chatSchema } from "./chat-schema.js";
import type { ChatStatus } from "./status.js";
import { chatData, chatFromRow, replaceValues, summaryFromRow, type ChatRecord, type ChatStore } from "./store.js";

/** The part of a `pg` Pool the store uses (typed here so that the kit's types need no `@types/pg`). */
export interface PgPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  connect(): Promise<{ query(text: string, values?: unknown[]): Promise<unknown>; release(): void }>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface PostgresChatStoreOptions {
  /** `postgres://user:password@host:port/database`; or give `pool`. */
  connectionString?: string;
  /** A `pg` Pool of your own; the store does not end it on close. */
  pool?: PgPool;
  /** More `pg` pool settings (`max`, `ssl`, …), with `connectionString`. */
  poolConfig?: Record<string, unknown>;
}

const SCHEMA = chatSchema({ integer: "BIGINT", flag: "BOOLEAN NOT NULL DEFAULT FALSE" });

type PgPoolClass = new (config: Record<string, unknown>) => PgPool;

// Any number: it only keeps two servers from creating the tables at the same moment.
const SCHEMA_LOCK = 7_212_911_001;

/**
 * Chats in PostgreSQL through `pg` (an optional peer dependency), for more
 * than one chat server: every write is one conditional UPDATE on (status,
 * version), so when two servers take answers for the same call, exactly one
 * of them moves the chat on.
 */
export async function createPostgresChatStore(options: PostgresChatStoreOptions): Promise<ChatStore> {
  let pool = options.pool;
  const ownPool = !pool;
  if (!pool) {
    // Left to Node at run time, not to the app's bundler: an app that never sets a database builds without pg.
    const pg = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "pg").catch((error: unknown) => {
      throw new Error("createPostgresChatStore needs the pg package: npm install pg", { cause: error });
    })) as unknown as { default?: { Pool: PgPoolClass }; Pool?: PgPoolClass };
    const PoolClass = (pg.default?.Pool ?? pg.Pool)!;
    pool = new PoolClass({ connectionString: options.connectionString, ...options.poolConfig });
    // An idle connection that the server drops (a restart, a failover) must not take the process down; the pool reconnects.
    pool.on("error", () => undefined);
  }
  const db = pool;
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(SCHEMA);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }

  return {
    async insert(chat: ChatRecord) {
      const result = await db.query(
        "INSERT INTO ecu_chats (owner, id, status, version, data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (owner, id) DO NOTHING",
        [chat.owner, chat.id, chat.status, chat.version, chatData(chat), chat.createdAt, chat.updatedAt],
      );
      return result.rowCount === 1;
    },
    async head(owner, id) {
      const result = await db.query("SELECT status, version, updated_at FROM ecu_chats WHERE owner = $1 AND id = $2", [
        owner,
        id,
      ]);
      const row = result.rows[0] as
        | { status: ChatStatus; version: number | string; updated_at: number | string }
        | undefined;
      return row
        ? { owner, id, status: row.status, version: Number(row.version), updatedAt: Number(row.updated_at) }
        : null;
    },
    async get(owner, id) {
      const result = await db.query("SELECT * FROM ecu_chats WHERE owner = $1 AND id = $2", [owner, id]);
      const row = result.rows[0] as Parameters<typeof chatFromRow>[0] | undefined;
      return row ? chatFromRow(row) : null;
    },
    async replace(expected, next) {
      const result = await db.query(
        "UPDATE ecu_chats SET status = $1, version = $2, data = $3, updated_at = $4 WHERE owner = $5 AND id = $6 AND status = $7 AND version = $8",
        replaceValues(expected, next),
      );
      return result.rowCount === 1;
    },
    async list(owner, { limit }) {
      const result = await db.query(
        "SELECT c.id, c.status, c.created_at, c.updated_at, m.title, m.archived FROM ecu_chats c LEFT JOIN ecu_chat_meta m ON m.owner = c.owner AND m.id = c.id WHERE c.owner = $1 ORDER BY c.updated_at DESC, c.id LIMIT $2",
        [owner, limit],
      );
      return (result.rows as Parameters<typeof summaryFromRow>[0][]).map(summaryFromRow);
    },
    async setListing(owner, id, { ifUntitled, ...change }) {
      const found = await db.query("SELECT 1 FROM ecu_chats WHERE owner = $1 AND id = $2", [owner, id]);
      if (!found.rowCount) return false;
      if (ifUntitled) {
        await db.query(
          "INSERT INTO ecu_chat_meta (owner, id, title) VALUES ($1, $2, $3) ON CONFLICT (owner, id) DO UPDATE SET title = excluded.title WHERE ecu_chat_meta.title IS NULL",
          [owner, id, change.title ?? null],
        );
        return true;
      }
      // One statement sets only the columns a change names, so a rename and an archive at once both stay.
      await db.query(
        "INSERT INTO ecu_chat_meta (owner, id, title, archived) VALUES ($1, $2, $3, $4) ON CONFLICT (owner, id) DO UPDATE SET " +
          "title = CASE WHEN $5::boolean THEN excluded.title ELSE ecu_chat_meta.title END, archived = CASE WHEN $6::boolean THEN excluded.archived ELSE ecu_chat_meta.archived END",
        [
          owner,
          id,
          change.title ?? null,
          change.archived ?? false,
          change.title !== undefined,
          change.archived !== undefined,
        ],
      );
      return true;
    },
    async touch(chat, at) {
      await db.query(
        "UPDATE ecu_chats SET updated_at = $1 WHERE owner = $2 AND id = $3 AND version = $4 AND status = 'running'",
        [at, chat.owner, chat.id, chat.version],
      );
    },
    async usage(owner) {
      const result = await db.query(
        "SELECT COALESCE(SUM(octet_length(data)), 0) AS bytes FROM ecu_chats WHERE owner = $1",
        [owner],
      );
      return Number((result.rows[0] as { bytes: string | number }).bytes);
    },
    async totalUsage() {
      // octet_length reads a TOASTed value's size from its header, not the value.
      const result = await db.query("SELECT COALESCE(SUM(octet_length(data)), 0) AS bytes FROM ecu_chats");
      return Number((result.rows[0] as { bytes: string | number }).bytes);
    },
    async purge(before) {
      await db.query(
        "DELETE FROM ecu_chat_meta m USING ecu_chats c WHERE c.owner = m.owner AND c.id = m.id AND c.updated_at < $1",
        [before],
      );
      const result = await db.query("DELETE FROM ecu_chats WHERE updated_at < $1", [before]);
      return result.rowCount ?? 0;
    },
    async remove(owner, id) {
      await db.query("DELETE FROM ecu_chat_meta WHERE owner = $1 AND id = $2", [owner, id]);
      const result = await db.query("DELETE FROM ecu_chats WHERE owner = $1 AND id = $2", [owner, id]);
      return result.rowCount === 1;
    },
    async secret(name) {
      const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
      await db.query("INSERT INTO ecu_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
        name,
        value,
      ]);
      const result = await db.query("SELECT value FROM ecu_secrets WHERE name = $1", [name]);
      return new Uint8Array(Buffer.from((result.rows[0] as { value: string }).value, "base64"));
    },
    async close() {
      if (ownPool) await db.end();
    },
  };
}
