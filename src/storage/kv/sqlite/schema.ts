/** Connection settings and tables of the SQLite backend. */
import type { Database } from 'better-sqlite3';

export type SqliteSynchronous = 'FULL' | 'NORMAL' | 'OFF';

/**
 * `kv` holds the current state (one row per live key); `log` is the append-only history, one row
 * per revision (type 0 = put, 1 = delete; `prev_rev` is the revision of the key's previous version,
 * 0 when the write created it); `meta` keeps the current and compacted revisions.
 */
const TABLES = `
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL,
  value BLOB NOT NULL,
  lease INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_lease ON kv (lease) WHERE lease != 0;
CREATE TABLE IF NOT EXISTS log (
  rev INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  create_rev INTEGER NOT NULL,
  prev_rev INTEGER NOT NULL,
  value BLOB,
  lease INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS log_key_rev ON log (key, rev);
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT OR IGNORE INTO meta (name, value) VALUES ('rev', 0), ('compact', 0);
CREATE TABLE IF NOT EXISTS lease (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ttl INTEGER NOT NULL,
  expiry INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS lease_expiry ON lease (expiry);
`;

/** A second process opened the same database file: it is held by a running server. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
}

export function prepareDatabase(db: Database, synchronous: SqliteSynchronous, path: string): void {
  // This process is the only writer (revisions are counted and watches fanned out in memory):
  // hold the file exclusively from the first transaction on, so a second server fails to start
  // instead of interleaving revisions.
  db.pragma('locking_mode = EXCLUSIVE');
  try {
    // Only takes effect before the first table exists, i.e. on a new file.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    db.exec('BEGIN IMMEDIATE; COMMIT;');
  } catch (err) {
    if (
      err instanceof Error &&
      /SQLITE_BUSY|database is locked/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`)
    ) {
      throw new DatabaseInUseError(
        `database ${path} is in use by another process (is another nanokube serving this data dir?)`,
      );
    }
    throw err;
  }
  db.exec(TABLES);
}
