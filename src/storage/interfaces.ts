/**
 * The object storage contract (upstream's storage.Interface, trimmed to what the registry uses):
 * JSON objects in, objects with resourceVersion out, optimistic concurrency as a retried update
 * function. Backends (SQLite, memory, etcd) sit below it as KvStores.
 */
import type { KubeObject } from '../machinery/object.js';
import type { TxnCompare, TxnDelete, TxnPut } from './kv/types.js';

/**
 * Writes to other keys committed in the same transaction as an object write (allocator state,
 * claims), under conditions on those keys. When a condition fails nothing is written and the
 * object write is retried from the start (for updates and deletes) or refused with
 * `SideConditionFailed` (creates), so the caller can look again and decide.
 */
export interface SideWrites {
  readonly compare?: readonly TxnCompare[];
  readonly ops?: readonly (TxnPut | TxnDelete)[];
}

/** Side writes for one attempt of an update or delete: `updated` is absent for a delete. */
export type SideWritesFor = (
  current: KubeObject | undefined,
  updated: KubeObject | undefined,
) => Promise<SideWrites | undefined> | SideWrites | undefined;

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface ObjectListOptions {
  /** Key prefix of the collection, ending in '/'. */
  readonly prefix: string;
  /** Read at exactly this revision (0/absent: the current one). */
  readonly revision?: number;
  readonly limit?: number;
  /** Continue token from an earlier page (overrides revision). */
  readonly continueToken?: string;
  /** Objects must match to be returned; pages are filled up to `limit` with matches. */
  readonly predicate?: (obj: KubeObject) => boolean;
}

export interface ObjectList {
  readonly items: KubeObject[];
  readonly revision: number;
  readonly continueToken?: string;
  readonly remainingItemCount?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ObjectWatchEvent {
  readonly type: WatchEventType;
  /** For DELETED: the last state, with resourceVersion set to the delete's revision. */
  readonly object: KubeObject;
  /** State before the change (absent for ADDED). */
  readonly prevObject?: KubeObject;
}

export interface ObjectWatchOptions {
  /** Watch a single key, or every key under a prefix (ending in '/'). */
  readonly key: string;
  readonly recursive: boolean;
  /** Deliver events after this revision (0: from now). */
  readonly afterRevision: number;
  readonly signal?: AbortSignal;
  /** Called when storage closes the watch because its consumer fell too far behind. */
  readonly onStalled?: () => void;
  /** Called with R when every change up to revision R has been delivered (see KvStore's watch). */
  readonly onProgress?: (revision: number) => void;
}

/** Called with the current object (undefined when absent); returns the object to store. */
export type TryUpdate = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;

export interface GuaranteedUpdateOptions {
  readonly ignoreNotFound?: boolean;
  readonly preconditions?: Preconditions;
  /** Asked on every attempt, after `tryUpdate`, for writes to commit with this one. */
  readonly sideWrites?: SideWritesFor;
  /**
   * The object as a watch cache last saw it (read-only; stored without a lease): the first attempt
   * starts from it instead of reading storage, as upstream's cachedExistingObject.
   */
  readonly cachedExisting?: KubeObject | undefined;
}

export interface ObjectStore {
  create(
    key: string,
    obj: KubeObject,
    options?: { readonly ttlSeconds?: number; readonly sideWrites?: SideWrites },
  ): Promise<KubeObject>;
  get(key: string): Promise<KubeObject | undefined>;
  list(options: ObjectListOptions): Promise<ObjectList>;
  /**
   * Reads, applies `tryUpdate`, writes with compare-and-swap; retries on a concurrent write. When
   * the result encodes to the same bytes as the stored object nothing is written.
   */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, options?: GuaranteedUpdateOptions): Promise<KubeObject>;
  delete(
    key: string,
    options?: {
      readonly preconditions?: Preconditions;
      /** Checked against the current object inside the CAS loop; throw to refuse. */
      readonly validateDeletion?: (obj: KubeObject) => void | Promise<void>;
      /** Asked on every attempt for writes to commit with the delete. */
      readonly sideWrites?: SideWritesFor;
    },
  ): Promise<KubeObject>;
  watch(options: ObjectWatchOptions): AsyncIterable<ObjectWatchEvent>;
  /** Events a watcher may hold undelivered before storage closes it (caches above use the same). */
  readonly watchMaxQueuedEvents?: number | undefined;
  currentRevision(): Promise<number>;
  /** The revision compaction has reached: reads at older revisions fail (410 to clients). */
  compactedRevision(): Promise<number>;
  count(prefix: string): Promise<number>;
  /** The same store as one resource sees it, its requests measured under that resource's name. */
  forResource?(resource: string): ObjectStore;
}
