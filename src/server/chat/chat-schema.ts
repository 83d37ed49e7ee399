/** How a dialect of SQL writes a whole number of up to 64 bits and a flag that starts false. */
export interface SchemaWords {
  integer: "BIGINT" | "INTEGER";
  flag: "BOOLEAN NOT NULL DEFAULT FALSE" | "INTEGER NOT NULL DEFAULT 0";
}

/** The chat stores' tables, one text for both dialects, so SQLite's and PostgreSQL's cannot drift apart. */
export const chatSchema = ({ integer, flag }: SchemaWords) => `
CREATE TABLE IF NOT EXISTS ecu_chats (
  owner TEXT NOT NULL,
  id TEXT NOT NULL,
  status TEXT NOT NULL,
  version ${integer} NOT NULL,
  data TEXT NOT NULL,
  created_at ${integer} NOT NULL,
  updated_at ${integer} NOT NULL,
  PRIMARY KEY (owner, id)
);
CREATE INDEX IF NOT EXISTS ecu_chats_updated_at ON ecu_chats (updated_at);
CREATE TABLE IF NOT EXISTS ecu_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ecu_chat_meta (
  owner TEXT NOT NULL,
  id TEXT NOT NULL,
  title TEXT,
  archived ${flag},
  PRIMARY KEY (owner, id)
);`;
