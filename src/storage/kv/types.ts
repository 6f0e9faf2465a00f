/**
 * The revisioned key-value contract every storage backend implements (SQLite, memory, later etcd).
 * Semantics follow etcd v3: one global revision counter bumped by every successful write (all writes
 * of one transaction share one revision); each key carries the revision it was created at and last
 * modified at; reads may ask for a past revision until it is compacted away.
 */

/** One key's state at some revision. `value` is opaque bytes (the object codec lives above). */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  /** Revision of the write that created this incarnation of the key. */
  readonly createRevision: number;
  /** Revision of the last write to the key (equals createRevision right after create). */
  readonly modRevision: number;
  /** Lease the key is attached to, 0 when none. */
  readonly lease: number;
  /**
   * Set by encryption at rest (storage/value) when the value was read with a provider or key other
   * than the one writes use: an update must rewrite it even when the object did not change.
   */
  readonly stale?: boolean;
}

export type KvEventType = 'put' | 'delete';

/**
 * One change. For `put`, `kv` is the new state. For `delete`, `kv.key` is the key, `kv.modRevision`
 * is the revision of the delete, and `kv.value` is empty. `prevKv` is the state just before the
 * change (absent for a put that created the key). Several events share a revision when one
 * transaction (or one lease revocation) wrote several keys; they come in the order of its ops.
 */
export interface KvEvent {
  readonly type: KvEventType;
  readonly kv: KeyValue;
  readonly prevKv?: KeyValue;
}

export interface RangeOptions {
  /** First key of the range, inclusive. */
  readonly key: string;
  /** End of the range, exclusive. Absent: just `key`. Use `prefixEnd(prefix)` for a prefix. */
  readonly end?: string;
  /** Maximum number of kvs returned; 0 or absent means no limit. */
  readonly limit?: number;
  /** Read at this revision (0 or absent: the current revision). */
  readonly revision?: number;
  /** Only count, return no kvs. */
  readonly countOnly?: boolean;
}

export interface RangeResult {
  readonly kvs: readonly KeyValue[];
  /** True when `limit` cut the result. */
  readonly more: boolean;
  /** Number of keys in the whole range at that revision (ignores limit). */
  readonly count: number;
  /** The revision the read was served at (the store's current revision when none was asked). */
  readonly revision: number;
}

export interface PutOptions {
  /** Attach the key to this lease (it is deleted when the lease expires). */
  readonly lease?: number;
}

export type CreateResult =
  { readonly ok: true; readonly kv: KeyValue } | { readonly ok: false; readonly current: KeyValue };

/** Result of a compare-and-swap write. On failure `current` is the key's state now (absent if missing). */
export type SwapResult =
  | { readonly ok: true; readonly kv: KeyValue; readonly prevKv: KeyValue }
  | { readonly ok: false; readonly current?: KeyValue };

export type DeleteResult =
  | { readonly ok: true; readonly revision: number; readonly prevKv: KeyValue }
  | { readonly ok: false; readonly current?: KeyValue };

export interface WatchOptions {
  /** First key of the watched range, inclusive; with `end` absent only this key is watched. */
  readonly key: string;
  readonly end?: string;
  /**
   * Deliver every event with revision >= startRevision. 0 or absent: only events after the watch
   * was established. A startRevision at or below the compacted revision throws KvCompactedError
   * (synchronously from `watch`, before any event).
   */
  readonly startRevision?: number;
  /** Include prevKv on events. */
  readonly prevKv?: boolean;
  /** Ends the watch: the iterator finishes normally. */
  readonly signal?: AbortSignal;
  /**
   * Called when the store closed this watch because its consumer fell too far behind (the
   * iterator has ended; a consumer that is not pulling learns of it here).
   */
  readonly onStalled?: () => void;
  /**
   * Progress notification (etcd's WithProgressNotify, made exact): called with R when the consumer
   * asks for the next event and has been handed every event of revisions up to R, so it may treat
   * its view of the range as current at R even though R's writes were elsewhere.
   */
  readonly onProgress?: (revision: number) => void;
}

/** How a compared field relates to the given value: `<` holds when the key's field is smaller. */
export type TxnCompareOperator = '=' | '!=' | '<' | '>';

/**
 * Compares a numeric field of one key: `mod` (modRevision), `create` (createRevision) or `lease`.
 * An absent key has all three equal to 0, as in etcd (so `create = 0` means "absent").
 */
export interface TxnNumberCompare {
  readonly key: string;
  readonly target: 'mod' | 'create' | 'lease';
  readonly operator: TxnCompareOperator;
  readonly value: number;
}

/**
 * Compares the value bytes of one key (`<`/`>` in byte-wise order). Never holds for an absent key,
 * whatever the operator, as in etcd.
 */
export interface TxnValueCompare {
  readonly key: string;
  readonly target: 'value';
  readonly operator: TxnCompareOperator;
  readonly value: Uint8Array;
}

export type TxnCompare = TxnNumberCompare | TxnValueCompare;

/** Writes `value` to `key`, creating it or replacing its value (and lease: absent means none). */
export interface TxnPut {
  readonly type: 'put';
  readonly key: string;
  readonly value: Uint8Array;
  /** Attach the key to this lease; it must exist or the whole txn is refused. */
  readonly lease?: number;
}

/** Deletes `key`; deleting an absent key is not an error (its result says `deleted: 0`). */
export interface TxnDelete {
  readonly type: 'delete';
  readonly key: string;
}

/**
 * Reads a range inside the txn, at the txn's point in the revision order: it sees the state before
 * the txn plus the writes of the ops before it in the same txn (etcd's behaviour), so a range placed
 * before every write reads the state as it was before the txn.
 */
export interface TxnRange extends Omit<RangeOptions, 'revision'> {
  readonly type: 'range';
}

export type TxnOp = TxnPut | TxnDelete | TxnRange;

/**
 * An etcd Txn: if every comparison in `compare` holds (an empty list always holds), `success` runs,
 * otherwise `failure`. All writes of the branch share one new revision; a branch that writes nothing
 * leaves the revision unchanged. A key may be written (put or deleted) at most once per branch
 * (KvDuplicateKeyError) and a put's lease must exist (KvLeaseNotFoundError); such a txn is refused as
 * a whole before anything is written. Both branches are checked for duplicates, only the branch that
 * runs for leases (like etcd).
 */
export interface TxnRequest {
  readonly compare?: readonly TxnCompare[];
  readonly success?: readonly TxnOp[];
  readonly failure?: readonly TxnOp[];
}

/** A put's outcome: the new state, and the state it replaced (absent when it created the key). */
export interface TxnPutResult {
  readonly type: 'put';
  readonly kv: KeyValue;
  readonly prevKv?: KeyValue;
}

/** A delete's outcome: whether the key existed, and then its state before the delete. */
export interface TxnDeleteResult {
  readonly type: 'delete';
  readonly deleted: 0 | 1;
  readonly prevKv?: KeyValue;
}

export interface TxnRangeResult extends RangeResult {
  readonly type: 'range';
}

export type TxnOpResult = TxnPutResult | TxnDeleteResult | TxnRangeResult;

export interface TxnResponse {
  /** Whether the comparisons held (so `success` ran rather than `failure`). */
  readonly succeeded: boolean;
  /** The txn's revision when it wrote, otherwise the current revision it was evaluated at. */
  readonly revision: number;
  /** One result per op of the branch that ran, in op order. */
  readonly responses: readonly TxnOpResult[];
}

export interface Lease {
  readonly id: number;
  readonly ttlSeconds: number;
}

/** A lease as a snapshot holds it: what was left of its time when the snapshot was taken. */
export interface SnapshotLease {
  readonly id: number;
  readonly ttlSeconds: number;
  readonly remainingMs: number;
}

/** The whole keyspace at one revision (no history), as `snapshot()` takes and `restore()` puts back. */
export interface KvSnapshot {
  readonly revision: number;
  /** Every live key, in key order, with its create and mod revisions. */
  readonly kvs: readonly KeyValue[];
  readonly leases: readonly SnapshotLease[];
  /**
   * The key layout of `kvs` (see KvStore.keyLayout): 1 for a snapshot file saved by a nanokube of
   * the first layout; absent for kube-apiserver's.
   */
  readonly keyLayout?: number;
}

export interface KvStore {
  /** Backend name for logs and metrics: "sqlite", "memory", "etcd". */
  readonly backend: string;

  /** The current (latest committed) revision; 0 for an empty new store... */
  currentRevision(): Promise<number>;
  /** The revision compaction has reached (reads below it fail). */
  compactedRevision(): Promise<number>;

  range(options: RangeOptions): Promise<RangeResult>;

  /** Create `key` only if absent (etcd txn `create_revision == 0`). */
  create(key: string, value: Uint8Array, options?: PutOptions): Promise<CreateResult>;
  /** Overwrite `key` only if its modRevision equals `expectedModRevision`. */
  update(
    key: string,
    value: Uint8Array,
    expectedModRevision: number,
    options?: PutOptions,
  ): Promise<SwapResult>;
  /** Delete `key`; with `expectedModRevision` only if it matches. */
  delete(key: string, expectedModRevision?: number): Promise<DeleteResult>;
  /**
   * An atomic multi-key transaction with etcd Txn semantics (see TxnRequest); rejects with
   * KvDuplicateKeyError or KvLeaseNotFoundError, having written nothing, when the request is invalid.
   */
  txn(request: TxnRequest): Promise<TxnResponse>;

  /**
   * Events in revision order, without gaps or duplicates, as an async iterable; the events of one
   * revision come together, in the order of the ops that wrote them.
   */
  watch(options: WatchOptions): AsyncIterable<KvEvent>;
  /** Events a watcher may hold undelivered before the store closes it. */
  readonly watchMaxQueuedEvents?: number;

  /** Forget history below `revision` (keeps each key's latest state). */
  compact(revision: number): Promise<void>;

  grantLease(ttlSeconds: number): Promise<Lease>;
  keepAliveLease(id: number): Promise<void>;
  /** Ends the lease and deletes its keys, all at one new revision (none when it had no keys). */
  revokeLease(id: number): Promise<void>;

  /** Flush and release everything; pending watches end. */
  close(): Promise<void>;
  /** The whole keyspace at the current revision. */
  snapshot(): Promise<KvSnapshot>;
  /**
   * The database's size in bytes on disk by where it lives (an etcd member's URL, a SQLite
   * file), -1 for one that cannot be asked; absent for a store kept in memory.
   */
  storageSizes?(): Promise<ReadonlyMap<string, number>>;
  /**
   * Which key layout a persistent store's keys are in: 1, nanokube's first (/registry/<group>/
   * <resource>/...), or 2, kube-apiserver's; absent for stores that only ever had the second.
   */
  keyLayout?(): number;
  setKeyLayout?(version: number): Promise<void>;
  /**
   * Replaces the whole keyspace (and the leases) with a snapshot's. Keys keep their revisions;
   * the store's revision moves one past both the snapshot's and its own, and everything before
   * it is compacted: watches open now fail with KvCompactedError, so their consumers list again
   * (clients get 410 Gone). Resolves with the new revision.
   */
  restore(snapshot: KvSnapshot): Promise<number>;
}

/** The smallest key greater than every key starting with `prefix` (etcd's prefix end). */
export function prefixEnd(prefix: string): string {
  if (prefix.length === 0) return '\u0000';
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
