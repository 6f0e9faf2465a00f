/** A complete KvStore kept in process memory: for tests, dev servers and ephemeral clusters. */
import { KvClosedError, KvCompactedError, KvFutureRevisionError, KvLeaseNotFoundError } from '../errors.js';
import { attempt } from '../attempt.js';
import { keySpan } from '../key-range.js';
import type { Maintenance, MaintenanceSettings } from '../maintenance.js';
import { startMaintenance } from '../maintenance.js';
import { checkWatchStart, readRevision } from '../revision-checks.js';
import type {
  CreateResult,
  DeleteResult,
  KvEvent,
  KvStore,
  KvSnapshot,
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
import { MemoryHistory } from './memory-history.js';

export interface MemoryKvOptions extends MaintenanceSettings {
  /** Receives background errors (default: console.error). */
  readonly onError?: (error: unknown) => void;
  /** Events a watch catching up reads from history per step (default 500). */
  readonly watchReplayPageSize?: number;
  /** Undelivered events after which a stalled watcher is closed (default 10,000). */
  readonly watchMaxQueuedEvents?: number;
}

interface LeaseEntry {
  readonly ttlSeconds: number;
  expiresAt: number;
}

class MemoryKv implements KvStore {
  readonly backend = 'memory';
  readonly #state = new MemoryHistory();
  readonly #hub: WatchHub;
  readonly #leases = new Map<number, LeaseEntry>();
  readonly #maintenance: Maintenance;
  readonly #now: () => number;
  #rev = 0;
  #compacted = 0;
  #nextLeaseId = 1;
  #closed = false;
  /** Events applied by the write in progress, published once it finishes. */
  #applied: KvEvent[] = [];

  readonly #target: KvTxnTarget = {
    get: (key) => this.#state.get(key),
    hasLease: (id) => this.#leases.has(id),
    nextRevision: () => ++this.#rev,
    apply: (ev) => {
      this.#state.append(ev);
      this.#applied.push(ev);
    },
    revision: () => this.#rev,
    range: (span, limit, countOnly) => this.#state.range(span, this.#rev, limit, countOnly),
  };

  readonly #history: WatchHistorySource = {
    readHistory: (from, span, limit) => {
      if (this.#closed) throw new KvClosedError();
      if (from <= this.#compacted) throw new KvCompactedError(from, this.#compacted);
      return this.#state.history(from, span, limit);
    },
  };

  constructor(options: MemoryKvOptions) {
    const onError = options.onError ?? ((error: unknown) => console.error('memory kv:', error));
    this.#now = options.now ?? Date.now;
    this.#hub = new WatchHub({
      replayPageSize: options.watchReplayPageSize,
      maxQueuedEvents: options.watchMaxQueuedEvents,
    });
    this.#maintenance = startMaintenance(options, {
      currentRevision: () => this.#rev,
      compactedRevision: () => this.#compacted,
      compact: (rev) => this.compact(rev),
      expireLeases: async (now) => {
        for (const [id, lease] of [...this.#leases]) if (lease.expiresAt <= now) await this.revokeLease(id);
      },
      onError,
    });
  }

  get watchMaxQueuedEvents(): number {
    return this.#hub.maxQueuedEvents;
  }

  currentRevision(): Promise<number> {
    return Promise.resolve(this.#rev);
  }

  compactedRevision(): Promise<number> {
    return Promise.resolve(this.#compacted);
  }

  range(options: RangeOptions): Promise<RangeResult> {
    return attempt(() => {
      this.#assertOpen();
      const rev = readRevision(options.revision, this.#rev, this.#compacted);
      const span = keySpan(options.key, options.end);
      const result = this.#state.range(span, rev, options.limit ?? 0, options.countOnly === true);
      return { ...result, revision: rev };
    });
  }

  create(key: string, value: Uint8Array, options?: PutOptions): Promise<CreateResult> {
    return this.#write((t) => createKey(t, key, value, options?.lease ?? 0));
  }

  update(
    key: string,
    value: Uint8Array,
    expectedModRevision: number,
    options?: PutOptions,
  ): Promise<SwapResult> {
    return this.#write((t) => updateKey(t, key, value, expectedModRevision, options?.lease ?? 0));
  }

  delete(key: string, expectedModRevision?: number): Promise<DeleteResult> {
    return this.#write((t) => deleteKey(t, key, expectedModRevision));
  }

  txn(request: TxnRequest): Promise<TxnResponse> {
    return this.#write((t) => runTxn(t, request));
  }

  watch(options: WatchOptions): AsyncIterable<KvEvent> {
    this.#assertOpen();
    checkWatchStart(options.startRevision ?? 0, this.#compacted);
    return this.#hub.watch(options, this.#rev, this.#history);
  }

  compact(revision: number): Promise<void> {
    return attempt(() => {
      this.#assertOpen();
      if (revision > this.#rev) throw new KvFutureRevisionError(revision, this.#rev);
      if (revision <= this.#compacted) return;
      this.#state.compact(revision);
      this.#compacted = revision;
    });
  }

  grantLease(ttlSeconds: number): Promise<Lease> {
    return attempt(() => {
      this.#assertOpen();
      const id = this.#nextLeaseId++;
      this.#leases.set(id, { ttlSeconds, expiresAt: this.#now() + ttlSeconds * 1000 });
      return { id, ttlSeconds };
    });
  }

  keepAliveLease(id: number): Promise<void> {
    return attempt(() => this.#keepAlive(id));
  }

  #keepAlive(id: number): void {
    this.#assertOpen();
    const lease = this.#leases.get(id);
    if (lease === undefined || lease.expiresAt <= this.#now()) throw new KvLeaseNotFoundError(id);
    lease.expiresAt = this.#now() + lease.ttlSeconds * 1000;
  }

  revokeLease(id: number): Promise<void> {
    return this.#write((t) => {
      if (!this.#leases.delete(id)) throw new KvLeaseNotFoundError(id);
      deleteKeys(t, this.#state.keysWithLease(id));
    });
  }

  snapshot(): Promise<KvSnapshot> {
    return attempt(() => {
      this.#assertOpen();
      const now = this.#now();
      return {
        revision: this.#rev,
        kvs: this.#state.currentState(),
        leases: [...this.#leases].map(([id, l]) => ({
          id,
          ttlSeconds: l.ttlSeconds,
          remainingMs: Math.max(0, l.expiresAt - now),
        })),
      };
    });
  }

  restore(snapshot: KvSnapshot): Promise<number> {
    return attempt(() => {
      this.#assertOpen();
      const revision = Math.max(this.#rev, snapshot.revision) + 1;
      this.#state.reset(snapshot.kvs);
      this.#leases.clear();
      const now = this.#now();
      for (const l of snapshot.leases) {
        this.#leases.set(l.id, { ttlSeconds: l.ttlSeconds, expiresAt: now + l.remainingMs });
        this.#nextLeaseId = Math.max(this.#nextLeaseId, l.id + 1);
      }
      this.#rev = this.#compacted = revision;
      this.#hub.failAll(new KvCompactedError(revision, revision));
      return revision;
    });
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#maintenance.stop();
      this.#hub.closeAll();
    }
    return Promise.resolve();
  }

  /** Applies one write (of any number of events) and publishes its events; failures become rejections. */
  #write<T>(run: (target: KvTxnTarget) => T): Promise<T> {
    return attempt(() => {
      this.#assertOpen();
      try {
        return run(this.#target);
      } finally {
        const events = this.#applied;
        this.#applied = [];
        this.#hub.publish(events);
      }
    });
  }

  #assertOpen(): void {
    if (this.#closed) throw new KvClosedError();
  }
}

/** Opens an empty in-memory store. */
export function createMemoryKv(options: MemoryKvOptions = {}): KvStore {
  return new MemoryKv(options);
}
