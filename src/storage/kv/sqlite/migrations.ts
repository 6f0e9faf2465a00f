/**
 * Schema migrations of the SQLite backend, run once on open inside the schema transaction. The
 * version lives in `PRAGMA user_version`; each step's SQL is frozen as it was written, so later
 * changes to the current tables (schema.ts) never alter an old step.
 */
import type { Database } from 'better-sqlite3';

/**
 * The version schema.ts creates. 0: the first release; 1: several log rows per revision; 2: the
 * key layout is recorded.
 */
export const SCHEMA_VERSION = 2;

/**
 * 0 → 1: `log` was keyed by `rev` (one row per revision); now an `id` orders the rows and a
 * revision may hold several (one per key written by a transaction). Every row is kept with its
 * revision; `id = rev * 2^20` (statements.ts: a row's id is its revision times 2^20 plus its
 * position in the revision), so ids keep the revision order without an index on `rev`.
 * The indexes are created by schema.ts right after.
 */
function logRowsPerKey(db: Database): void {
  db.exec(`
    CREATE TABLE log_v1 (
      id INTEGER PRIMARY KEY,
      rev INTEGER NOT NULL,
      key TEXT NOT NULL,
      type INTEGER NOT NULL,
      create_rev INTEGER NOT NULL,
      prev_rev INTEGER NOT NULL,
      value BLOB,
      lease INTEGER NOT NULL
    );
    INSERT INTO log_v1 (id, rev, key, type, create_rev, prev_rev, value, lease)
      SELECT rev * 1048576, rev, key, type, create_rev, prev_rev, value, lease FROM log ORDER BY rev;
    DROP TABLE log;
    ALTER TABLE log_v1 RENAME TO log;
  `);
}

/**
 * 1 → 2: `meta` records which key layout the keys are in. A file from before holds nanokube's
 * first layout (1); the server moves its keys to kube-apiserver's (2) on its first start, through
 * encryption at rest, which SQL alone cannot do.
 */
function keyLayoutRecorded(db: Database): void {
  db.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('layout', 1);`);
}

/** Steps by the version they upgrade from. */
const STEPS: readonly ((db: Database) => void)[] = [logRowsPerKey, keyLayoutRecorded];

/** Upgrades an existing database from `version` to SCHEMA_VERSION (inside a transaction). */
export function migrate(db: Database, version: number): void {
  for (let v = version; v < SCHEMA_VERSION; v++) STEPS[v]!(db);
}
