/** The default, durable KvStore: one SQLite file in WAL mode, written only by this process. */
import Database from 'better-sqlite3';
import {
  KvClosedError,
  KvCompactedError,
  KvDuplicateKeyError,
  KvFutureRevisionError,
  KvLeaseNotFoundError,
} from '../errors.js';
import { attempt } from '../attempt.js';
import { keySpan } from '../key-range.js';
import type { Maintenance, MaintenanceSettings } from '../maintenance.js';
import { startMaintenance } from '../maintenance.js';
import { checkWatchStart, readRevision } from '../revision-checks.js';
import type {
  CreateResult,
  DeleteResult,
  KvEvent,
  KvSnapshot,
  KvStore,
  Lease,
  PutOptions,
  RangeOptions,
  RangeResult,
  SwapResult,
  TxnRequest,
  TxnResponse,
  WatchOptions,
} from '../types.js';
import type { KvTxnTarget } from '../txn-ops.js';
import { runTxn } from '../txn-ops.js';
import type { WatchHistorySource } from '../watch-hub.js';
import { WatchHub } from '../watch-hub.js';
import { createKey, deleteKey, deleteKeys, updateKey } from '../write-ops.js';
import { GroupCommit } from './group-commit.js';
import { WalSync } from './wal-sync.js';
import { readRange } from './range-reader.js';
import type { SqliteSynchronous } from './schema.js';
import { DatabaseOpenError, prepareDatabase } from './schema.js';
import { SqliteStatements } from './statements.js';

export interface SqliteKvOptions extends MaintenanceSettings {
  /** Database file, or ':memory:'. */
  readonly path: string;
  /**
   * Durability (default 'FULL': acknowledged writes survive power loss; on a file database this is
   * SQLite's NORMAL plus an fdatasync of the WAL off the event loop before writes are acknowledged,
   * see wal-sync.ts). 'NORMAL' and 'OFF' are SQLite's own.
   */
  readonly synchronous?: SqliteSynchronous;
  /** Closes the store when aborted. */
  readonly signal?: AbortSignal;
  /** Receives background errors (default: console.error). */
  readonly onError?: (error: unknown) => void;
  /** Events a watch catching up reads from history per step (default 500). */
  readonly watchReplayPageSize?: number;
  /** Undelivered events after which a stalled watcher is closed (default 10,000). */
  readonly watchMaxQueuedEvents?: number;
}

class SqliteKv implements KvStore {
  readonly backend = 'sqlite';
  readonly #db: Database.Database;
  readonly #stmts: SqliteStatements;
  readonly #hub: WatchHub;
  readonly #commit: GroupCommit;
  readonly #maintenance: Maintenance;
  readonly #signal: AbortSignal | undefined;
  /** Set when durability is kept by syncing the WAL off the event loop (see wal-sync.ts). */
  readonly #walSync: WalSync | undefined;
  /** Revision including writes of the batch being committed. */
  #rev: number;
  #committedRev: number;
  #compacted: number;
  #closed = false;
  /** Between close() starting and the hub closing: the last batches still publish. */
  #closing = false;
  /** Events written by the batch in progress, published after it commits. */
  #batchEvents: KvEvent[] = [];

  readonly #target: KvTxnTarget = {
    get: (key) => this.#stmts.get(key),
    hasLease: (id) => this.#stmts.getLease.get(id) !== undefined,
    nextRevision: () => ++this.#rev,
    apply: (ev) => {
      this.#stmts.apply(ev);
      this.#batchEvents.push(ev);
    },
    revision: () => this.#rev,
    // Inside the batch: the current-state table already holds the batch's earlier writes.
    range: (span, limit, countOnly) =>
      readRange(this.#stmts, { span, revision: this.#rev, current: this.#rev, limit, countOnly }),
  };

  readonly #history: WatchHistorySource = {
    readHistory: (from, span, limit) => {
      if (this.#closed) throw new KvClosedError();
      if (from <= this.#compacted) throw new KvCompactedError(from, this.#compacted);
      return this.#stmts.history(from, span, limit);
    },
  };

  readonly #onAbort = (): void => {
    this.close().catch(this.#onError);
  };

  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #path: string;

  constructor(db: Database.Database, options: SqliteKvOptions, walSync?: WalSync) {
    this.#db = db;
    this.#path = options.path;
    this.#walSync = walSync;
    this.#stmts = new SqliteStatements(db);
    this.#hub = new WatchHub({
      replayPageSize: options.watchReplayPageSize,
      maxQueuedEvents: options.watchMaxQueuedEvents,
    });
    this.#rev = this.#committedRev = this.#stmts.meta('rev');
    this.#compacted = this.#stmts.meta('compact');
    this.#onError = options.onError ?? ((error: unknown) => console.error('sqlite kv:', error));
    this.#now = options.now ?? Date.now;
    const transaction = db.transaction((body: () => void) => {
      body();
      if (this.#rev !== this.#committedRev) this.#stmts.setMeta('rev', this.#rev);
    });
    this.#commit = new GroupCommit({
      transaction: (body) => {
        try {
          transaction(body);
        } catch (error) {
          this.#noteFull(error);
          throw error;
        }
      },
      committed: () => {
        this.#committedRev = this.#rev;
        const events = this.#batchEvents;
        this.#batchEvents = [];
        if (this.#walSync === undefined) {
          this.#hub.publish(events);
          return;
        }
        // Watchers see a write only once it is durable, as etcd's do; syncs complete in order, so
        // batches publish in revision order. A failed sync fails the batch's callers, but the rows
        // are committed and readable, so watchers still get the events.
        const published = (): void => {
          if (!this.#closed || this.#closing) this.#hub.publish(events);
        };
        return this.#walSync.sync().then(published, (err: unknown) => {
          published();
          this.#onError(err);
          throw err;
        });
      },
      rolledBack: () => {
        this.#stmts.rolledBack();
        this.#rev = this.#committedRev;
        this.#batchEvents = [];
        this.#compacted = this.#stmts.meta('compact');
      },
      isOperationError: (e) =>
        e instanceof KvLeaseNotFoundError ||
        e instanceof KvFutureRevisionError ||
        e instanceof KvDuplicateKeyError,
    });
    this.#maintenance = startMaintenance(options, {
      currentRevision: () => this.#committedRev,
      compactedRevision: () => this.#compacted,
      compact: (rev) => this.compact(rev),
      expireLeases: (now) => this.#expireLeases(now),
      onError: this.#onError,
    });
    this.#signal = options.signal;
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  #fullSince: number | undefined;

  /**
   * A write refused because the disk is full (SQLITE_FULL) fails its batch like any other error,
   * and the client gets a 500; the operator is told once per minute of it why and what to do.
   */
  #noteFull(error: unknown): void {
    if ((error as { code?: unknown } | null)?.code !== 'SQLITE_FULL') return;
    const now = this.#now();
    if (this.#fullSince !== undefined && now - this.#fullSince < 60_000) return;
    this.#fullSince = now;
    this.#onError(
      new Error(
        `writes refused: the filesystem holding ${this.#path} is full (SQLITE_FULL); reads and ` +
          'watches go on, and writes resume on their own once space is freed',
      ),
    );
  }

  get watchMaxQueuedEvents(): number {
    return this.#hub.maxQueuedEvents;
  }

  currentRevision(): Promise<number> {
    return Promise.resolve(this.#committedRev);
  }

  compactedRevision(): Promise<number> {
    return Promise.resolve(this.#compacted);
  }

  range(options: RangeOptions): Promise<RangeResult> {
    return attempt(() => {
      this.#assertOpen();
      const revision = readRevision(options.revision, this.#committedRev, this.#compacted);
      const result = readRange(this.#stmts, {
        span: keySpan(options.key, options.end),
        revision,
        current: this.#committedRev,
        limit: options.limit ?? 0,
        countOnly: options.countOnly === true,
      });
      return { ...result, revision };
    });
  }

  create(key: string, value: Uint8Array, options?: PutOptions): Promise<CreateResult> {
    return this.#enqueue(() => createKey(this.#target, key, value, options?.lease ?? 0));
  }

  update(
    key: string,
    value: Uint8Array,
    expectedModRevision: number,
    options?: PutOptions,
  ): Promise<SwapResult> {
    return this.#enqueue(() => updateKey(this.#target, key, value, expectedModRevision, options?.lease ?? 0));
  }

  delete(key: string, expectedModRevision?: number): Promise<DeleteResult> {
    return this.#enqueue(() => deleteKey(this.#target, key, expectedModRevision));
  }

  /** One operation of the group commit, however many keys it writes. */
  txn(request: TxnRequest): Promise<TxnResponse> {
    return this.#enqueue(() => runTxn(this.#target, request));
  }

  watch(options: WatchOptions): AsyncIterable<KvEvent> {
    this.#assertOpen();
    checkWatchStart(options.startRevision ?? 0, this.#compacted);
    return this.#hub.watch(options, this.#committedRev, this.#history);
  }

  async compact(revision: number): Promise<void> {
    const removed = await this.#enqueue(() => {
      if (revision > this.#rev) throw new KvFutureRevisionError(revision, this.#rev);
      if (revision <= this.#compacted) return 0;
      const rows = this.#stmts.compact(revision);
      this.#stmts.setMeta('compact', revision);
      this.#compacted = revision;
      return rows;
    });
    if (removed > 0 && !this.#closed) {
      // Give freed pages back to the file system and keep the WAL from growing.
      this.#db.pragma('incremental_vacuum');
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
    }
  }

  grantLease(ttlSeconds: number): Promise<Lease> {
    return this.#enqueue(() => {
      const info = this.#stmts.insertLease.run(ttlSeconds, this.#now() + ttlSeconds * 1000);
      return { id: Number(info.lastInsertRowid), ttlSeconds };
    });
  }

  keepAliveLease(id: number): Promise<void> {
    return this.#enqueue(() => {
      const now = this.#now();
      const lease = this.#stmts.getLease.get(id);
      if (lease === undefined || lease.expiry <= now) throw new KvLeaseNotFoundError(id);
      this.#stmts.setLeaseExpiry.run(now + lease.ttl * 1000, id);
    });
  }

  revokeLease(id: number): Promise<void> {
    return this.#enqueue(() => {
      if (!this.#revoke(id)) throw new KvLeaseNotFoundError(id);
    });
  }

  keyLayout(): number {
    return this.#stmts.meta('layout');
  }

  setKeyLayout(version: number): Promise<void> {
    this.#stmts.setMeta('layout', version);
    return Promise.resolve();
  }

  /** The database file's allocated pages (the WAL aside), as etcd reports its db size. */
  storageSizes(): Promise<ReadonlyMap<string, number>> {
    if (this.#path === ':memory:' || this.#path === '') return Promise.resolve(new Map());
    const pages = Number(this.#db.pragma('page_count', { simple: true }));
    const size = Number(this.#db.pragma('page_size', { simple: true }));
    return Promise.resolve(new Map([[this.#path, pages * size]]));
  }

  snapshot(): Promise<KvSnapshot> {
    return attempt(() => {
      this.#assertOpen();
      // One read transaction: the rows and the revision belong together.
      return this.#db.transaction(() => {
        const { kvs, leases } = this.#stmts.everything();
        const now = this.#now();
        return {
          revision: this.#committedRev,
          kvs,
          leases: leases.map((l) => ({
            id: l.id,
            ttlSeconds: l.ttl,
            remainingMs: Math.max(0, l.expiry - now),
          })),
        };
      })();
    });
  }

  async restore(snapshot: KvSnapshot): Promise<number> {
    const revision = await this.#enqueue(() => {
      const next = Math.max(this.#rev, snapshot.revision) + 1;
      const now = this.#now();
      this.#stmts.replaceAll(
        snapshot.kvs,
        snapshot.leases.map((l) => ({ id: l.id, ttl: l.ttlSeconds, expiry: now + l.remainingMs })),
      );
      this.#rev = this.#compacted = next;
      this.#stmts.setMeta('compact', next);
      return next;
    });
    this.#hub.failAll(new KvCompactedError(revision, revision));
    return revision;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#maintenance.stop();
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#commit.flush();
    this.#closed = true;
    this.#closing = true;
    // The last batches' callers are answered when their sync completes.
    await this.#walSync?.drained();
    this.#closing = false;
    return attempt(() => {
      this.#walSync?.close();
      this.#hub.closeAll();
      this.#db.close();
    });
  }

  /** Deletes the lease's keys (all at one revision) and the lease; false when it does not exist. */
  #revoke(id: number): boolean {
    if (this.#stmts.getLease.get(id) === undefined) return false;
    deleteKeys(this.#target, this.#stmts.keysWithLease(id));
    this.#stmts.deleteLease.run(id);
    return true;
  }

  async #expireLeases(now: number): Promise<void> {
    if (this.#closed) return;
    const expired = this.#stmts.expiredLeases.all(now);
    await Promise.all(expired.map(({ id }) => this.#enqueue(() => this.#revoke(id))));
  }

  #enqueue<T>(operation: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new KvClosedError());
    return this.#commit.enqueue(operation);
  }

  #assertOpen(): void {
    if (this.#closed) throw new KvClosedError();
  }
}

/** Opens (creating if needed) the SQLite store at `options.path`. */
export function openSqliteKv(options: SqliteKvOptions): Promise<KvStore> {
  return attempt(() => {
    options.signal?.throwIfAborted();
    // A held database fails fast (the other holder keeps it for its whole life).
    let db: Database.Database;
    try {
      db = new Database(options.path, { timeout: 1000 });
    } catch (err) {
      throw openError(options.path, err);
    }
    try {
      const synchronous = options.synchronous ?? 'FULL';
      const onDisk = options.path !== ':memory:' && options.path !== '';
      // FULL on a file: SQLite's NORMAL, and the WAL synced off the event loop before each ack.
      prepareDatabase(db, synchronous === 'FULL' && onDisk ? 'NORMAL' : synchronous, options.path);
      const walSync = synchronous === 'FULL' && onDisk ? new WalSync(`${options.path}-wal`) : undefined;
      return new SqliteKv(db, options, walSync);
    } catch (error) {
      db.close();
      throw openError(options.path, error);
    }
  });
}

/**
 * SQLite's refusals to open or read a file (not a database, corrupt, read-only, cannot be opened)
 * as DatabaseOpenError; anything else (our own errors carry no SQLite code) as it was.
 */
function openError(path: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^SQLITE_(CANTOPEN|NOTADB|CORRUPT|READONLY|PERM|IOERR|FULL)/.test(code))
    return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DatabaseOpenError(
    `cannot use database ${path}: ${message} (${code}; choose another --data-dir, or restore a snapshot into a new one)`,
  );
}
