/** Every SQL statement of the SQLite backend, prepared once, with row-to-KeyValue mapping. */
import type { Database, Statement } from 'better-sqlite3';
import type { KeySpan } from '../key-range.js';
import type { KeyValue, KvEvent } from '../types.js';
import { SpanQuery } from './span-query.js';

interface KvRow {
  key: string;
  create_rev: number;
  mod_rev: number;
  value: Buffer;
  lease: number;
}

interface LogStateRow {
  type: number;
  create_rev: number;
  rev: number;
  value: Buffer | null;
  lease: number;
}

interface HistoryRow {
  rev: number;
  key: string;
  type: number;
  create_rev: number;
  value: Buffer | null;
  lease: number;
  p_rev: number | null;
  p_create_rev: number | null;
  p_value: Buffer | null;
  p_lease: number | null;
}

interface ChangeRow {
  key: string;
  type: number;
  prev_rev: number;
}

/** How a key written after some revision R looked at R and looks now. */
export interface KeyChange {
  /** modRevision of the key's version at R, 0 when it did not exist at R. */
  readonly revisionAtRead: number;
  /** Whether the key exists now. */
  readonly liveNow: boolean;
}

interface CountRow {
  n: number;
}

export interface LeaseRow {
  ttl: number;
  expiry: number;
}

const TYPE_PUT = 0;
const TYPE_DELETE = 1;
const EMPTY = new Uint8Array(0);
const KV_COLUMNS = 'key, create_rev, mod_rev, value, lease';

/**
 * A page's LIMIT as a bound value. Not a bare `LIMIT ?`: SQLite's planner reads the value of a
 * bare LIMIT parameter, so a statement holding one is re-prepared whenever the binding is set,
 * which better-sqlite3 does on every run. Measured with SQLite 3.53 on a server's database held
 * as the server holds it (exclusive, WAL): a one-key range read 14.8 µs with `LIMIT ?`, 7.1 µs
 * with this (a one-key point read, 6.5 µs); a page of the watch history (4 rows) 57 against 40
 * µs. Inside an expression the value no longer reaches the planner.
 */
const LIMIT_PARAM = 'LIMIT CAST(? AS INTEGER)';

function toKv(row: KvRow): KeyValue {
  return {
    key: row.key,
    value: row.value,
    createRevision: row.create_rev,
    modRevision: row.mod_rev,
    lease: row.lease,
  };
}

function historyEvent(row: HistoryRow): KvEvent {
  const kv: KeyValue = {
    key: row.key,
    value: row.value ?? EMPTY,
    createRevision: row.create_rev,
    modRevision: row.rev,
    lease: row.lease,
  };
  const type = row.type === TYPE_PUT ? 'put' : 'delete';
  if (row.p_rev === null) return { type, kv };
  const prevKv: KeyValue = {
    key: row.key,
    value: row.p_value ?? EMPTY,
    createRevision: row.p_create_rev ?? 0,
    modRevision: row.p_rev,
    lease: row.p_lease ?? 0,
  };
  return { type, kv, prevKv };
}

/**
 * A log row's id is its revision times this plus its position in the revision's transaction, so
 * the primary key orders rows by revision and finds a revision's rows without a second index.
 */
export const opsPerRevision = 2 ** 20;
const opBits = 20n;

/** The first log id of revision `rev`. */
export function logId(rev: number): bigint {
  // A BigInt: revision × 2^20 passes 2^53 (JS numbers' exact range) at revision 2^33.
  return BigInt(rev) << opBits;
}

/** What snapshots and restores use, prepared on first use. */
interface RestoreStatements {
  readonly all: Statement<[], KvRow>;
  readonly leases: Statement<[], LeaseRow & { id: number }>;
  readonly insertLease: Statement<[number, number, number]>;
}

export class SqliteStatements {
  #lastRevision = -1;
  #opInRevision = 0;
  readonly #get: Statement<[string], KvRow>;
  readonly #upsert: Statement<[string, number, number, Uint8Array, number]>;
  readonly #deleteKv: Statement<[string]>;
  readonly #insertLog: Statement<[bigint, number, string, number, number, number, Uint8Array | null, number]>;
  readonly #logRow: Statement<[string, number], LogStateRow>;
  readonly #getMeta: Statement<[string], CountRow>;
  readonly #setMeta: Statement<[number, string]>;
  readonly #keysWithLease: Statement<[number], { key: string }>;
  readonly #compact: Statement<[bigint, number]>;
  readonly #currentPage: SpanQuery<KvRow>;
  readonly #currentCount: SpanQuery<CountRow>;
  readonly #unchangedPage: SpanQuery<KvRow>;
  readonly #changes: SpanQuery<ChangeRow>;
  readonly #history: SpanQuery<HistoryRow>;
  readonly #historyRest: SpanQuery<HistoryRow>;
  readonly insertLease: Statement<[number, number]>;
  readonly getLease: Statement<[number], LeaseRow>;
  readonly setLeaseExpiry: Statement<[number, number]>;
  readonly deleteLease: Statement<[number]>;
  readonly expiredLeases: Statement<[number], { id: number }>;

  readonly #db: Database;
  #restoreStatements: RestoreStatements | undefined;

  constructor(db: Database) {
    this.#db = db;
    this.#get = db.prepare(`SELECT ${KV_COLUMNS} FROM kv WHERE key = ?`);
    this.#upsert = db.prepare(
      `INSERT INTO kv (${KV_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET
       create_rev = excluded.create_rev, mod_rev = excluded.mod_rev, value = excluded.value,
       lease = excluded.lease`,
    );
    this.#deleteKv = db.prepare('DELETE FROM kv WHERE key = ?');
    this.#insertLog = db.prepare(
      'INSERT INTO log (id, rev, key, type, create_rev, prev_rev, value, lease) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#logRow = db.prepare(
      'SELECT type, create_rev, rev, value, lease FROM log WHERE key = ? AND rev = ?',
    );
    this.#getMeta = db.prepare('SELECT value AS n FROM meta WHERE name = ?');
    this.#setMeta = db.prepare('UPDATE meta SET value = ? WHERE name = ?');
    this.#keysWithLease = db.prepare('SELECT key FROM kv WHERE lease = ? AND lease != 0 ORDER BY key');
    // Rows at or below the compact revision go, except each key's newest one when it is a put.
    this.#compact = db.prepare(
      `DELETE FROM log WHERE id < ? AND (type = ${TYPE_DELETE} OR EXISTS (
         SELECT 1 FROM log AS newer WHERE newer.key = log.key AND newer.rev > log.rev AND newer.rev <= ?))`,
    );
    this.#currentPage = new SpanQuery(
      db,
      'key',
      (b) => `SELECT ${KV_COLUMNS} FROM kv WHERE key >= ? ${b} ORDER BY key ${LIMIT_PARAM}`,
    );
    this.#currentCount = new SpanQuery(db, 'key', (b) => `SELECT count(*) AS n FROM kv WHERE key >= ? ${b}`);
    this.#unchangedPage = new SpanQuery(
      db,
      'key',
      (b) => `SELECT ${KV_COLUMNS} FROM kv WHERE key >= ? ${b} AND mod_rev <= ? ORDER BY key ${LIMIT_PARAM}`,
    );
    // `+key` keeps the planner on the primary key: only rows newer than the read are scanned.
    this.#changes = new SpanQuery(
      db,
      '+key',
      (b) => `SELECT key, type, prev_rev FROM log WHERE +key >= ? ${b} AND id >= ? ORDER BY id`,
    );
    // A key's previous version is the row of the same key at prev_rev (a revision has several rows).
    const historyRows = (b: string, where: string): string =>
      `SELECT l.rev, l.key, l.type, l.create_rev, l.value, l.lease, p.rev AS p_rev,
         p.create_rev AS p_create_rev, p.value AS p_value, p.lease AS p_lease
       FROM log AS l LEFT JOIN log AS p ON p.key = l.key AND p.rev = l.prev_rev
       WHERE +l.key >= ? ${b} AND ${where}`;
    this.#history = new SpanQuery(db, '+l.key', (b) =>
      historyRows(b, `l.id >= ? ORDER BY l.id ${LIMIT_PARAM}`),
    );
    this.#historyRest = new SpanQuery(db, '+l.key', (b) =>
      historyRows(b, 'l.id >= ? AND l.id < ? ORDER BY l.id'),
    );
    this.insertLease = db.prepare('INSERT INTO lease (ttl, expiry) VALUES (?, ?)');
    this.getLease = db.prepare('SELECT ttl, expiry FROM lease WHERE id = ?');
    this.setLeaseExpiry = db.prepare('UPDATE lease SET expiry = ? WHERE id = ?');
    this.deleteLease = db.prepare('DELETE FROM lease WHERE id = ?');
    this.expiredLeases = db.prepare('SELECT id FROM lease WHERE expiry <= ?');
  }

  get(key: string): KeyValue | undefined {
    const row = this.#get.get(key);
    return row === undefined ? undefined : toKv(row);
  }

  /** Forgets the op counter of the revision being written (its batch was rolled back). */
  rolledBack(): void {
    this.#lastRevision = -1;
    this.#opInRevision = 0;
  }

  /** Writes one event to the log and the current-state table. */
  apply(ev: KvEvent): void {
    const kv = ev.kv;
    const prevRev = ev.prevKv?.modRevision ?? 0;
    const rev = kv.modRevision;
    this.#opInRevision = rev === this.#lastRevision ? this.#opInRevision + 1 : 0;
    this.#lastRevision = rev;
    if (this.#opInRevision >= opsPerRevision) {
      throw new Error(`a revision holds at most ${opsPerRevision} writes`);
    }
    const id = logId(rev) + BigInt(this.#opInRevision);
    if (ev.type === 'put') {
      this.#insertLog.run(id, rev, kv.key, TYPE_PUT, kv.createRevision, prevRev, kv.value, kv.lease);
      this.#upsert.run(kv.key, kv.createRevision, rev, kv.value, kv.lease);
    } else {
      this.#insertLog.run(id, rev, kv.key, TYPE_DELETE, 0, prevRev, null, 0);
      this.#deleteKv.run(kv.key);
    }
  }

  #restoring(): RestoreStatements {
    return (this.#restoreStatements ??= {
      all: this.#db.prepare(`SELECT ${KV_COLUMNS} FROM kv ORDER BY key`),
      leases: this.#db.prepare('SELECT id, ttl, expiry FROM lease ORDER BY id'),
      insertLease: this.#db.prepare('INSERT INTO lease (id, ttl, expiry) VALUES (?, ?, ?)'),
    });
  }

  /** Every live key in key order, and every lease. */
  everything(): { kvs: KeyValue[]; leases: (LeaseRow & { id: number })[] } {
    const s = this.#restoring();
    return { kvs: s.all.all().map(toKv), leases: s.leases.all() };
  }

  /**
   * Replaces the current state, history and leases with `kvs` and `leases` (inside the caller's
   * transaction); the revisions are the caller's to set.
   */
  replaceAll(kvs: readonly KeyValue[], leases: readonly { id: number; ttl: number; expiry: number }[]): void {
    const s = this.#restoring();
    this.#db.exec('DELETE FROM kv; DELETE FROM log; DELETE FROM lease;');
    for (const kv of kvs) this.#upsert.run(kv.key, kv.createRevision, kv.modRevision, kv.value, kv.lease);
    for (const l of leases) s.insertLease.run(l.id, l.ttl, l.expiry);
    this.rolledBack();
  }

  meta(name: 'rev' | 'compact' | 'layout'): number {
    return this.#getMeta.get(name)?.n ?? 0;
  }

  setMeta(name: 'rev' | 'compact' | 'layout', value: number): void {
    this.#setMeta.run(value, name);
  }

  keysWithLease(lease: number): string[] {
    return this.#keysWithLease.all(lease).map((r) => r.key);
  }

  /** Deletes obsolete history at or below `rev`; returns the number of log rows removed. */
  compact(rev: number): number {
    return this.#compact.run(logId(rev + 1), rev).changes;
  }

  /** Live keys in `span` in key order (`limit` <= 0: all). */
  currentPage(span: KeySpan, limit: number): KeyValue[] {
    return this.#currentPage.all(span, limit > 0 ? limit : -1).map(toKv);
  }

  currentCount(span: KeySpan): number {
    return this.#currentCount.get(span)?.n ?? 0;
  }

  /** Live keys in `span` not modified after `rev`: their current state is their state at `rev`. */
  unchangedPage(span: KeySpan, rev: number, limit: number): KeyValue[] {
    return this.#unchangedPage.all(span, rev, limit > 0 ? limit : -1).map(toKv);
  }

  /**
   * Keys in `span` written after `rev`. The first write after `rev` tells the key's version at
   * `rev` (its prev_rev; a create has none), the last one whether it exists now.
   */
  changesAfter(span: KeySpan, rev: number): Map<string, KeyChange> {
    const changes = new Map<string, KeyChange>();
    for (const row of this.#changes.all(span, logId(rev + 1))) {
      const seen = changes.get(row.key);
      changes.set(row.key, {
        revisionAtRead: seen === undefined ? row.prev_rev : seen.revisionAtRead,
        liveNow: row.type === TYPE_PUT,
      });
    }
    return changes;
  }

  /** The version of `key` written at `rev` (a put still in the log). */
  versionAt(key: string, rev: number): KeyValue | undefined {
    const row = this.#logRow.get(key, rev);
    if (row === undefined || row.type !== TYPE_PUT) return undefined;
    return {
      key,
      value: row.value ?? EMPTY,
      createRevision: row.create_rev,
      modRevision: row.rev,
      lease: row.lease,
    };
  }

  /**
   * Events in `span` from revision `from` on, in log order: up to `limit`, plus the rest of the last
   * one's revision so a page never splits a revision.
   */
  history(from: number, span: KeySpan, limit: number): KvEvent[] {
    const rows = this.#history.all(span, logId(from), limit);
    const last = rows[rows.length - 1];
    if (last !== undefined && rows.length === limit) {
      // The page may end inside a revision: read the whole revision and add the rows not yet seen.
      let seen = 0;
      for (let i = rows.length - 1; i >= 0 && rows[i]!.rev === last.rev; i--) seen++;
      const whole = this.#historyRest.all(span, logId(last.rev), logId(last.rev + 1));
      for (const row of whole.slice(seen)) rows.push(row);
    }
    return rows.map(historyEvent);
  }
}
