/** ObjectStore over any KvStore: the one place objects become bytes and revisions become resourceVersions. */
import type { KubeObject } from '../machinery/object.js';
import { jsonStorageCodec } from './codec.js';
import type { StorageCodec } from './codec.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { StorageError } from './errors.js';
import type {
  ObjectList,
  ObjectListOptions,
  ObjectStore,
  ObjectWatchEvent,
  ObjectWatchOptions,
  GuaranteedUpdateOptions,
  Preconditions,
  SideWrites,
  SideWritesFor,
  TryUpdate,
} from './interfaces.js';
import { KvCompactedError, KvFutureRevisionError } from './kv/errors.js';
import type { KeyValue, KvEvent, KvStore } from './kv/types.js';
import { prefixEnd } from './kv/types.js';
import { ResourceMeter, etcdLeaseObjectCounts, timeCount } from './metrics.js';
import type { StorageOperation } from './metrics.js';

const maxUpdateAttempts = 64;
/** Rows read per range call of a paged list. */
const maxChunk = 10000;

/** The object just written, with the write's revision as its resourceVersion. */
function withRevision(obj: KubeObject, revision: number): KubeObject {
  obj.metadata.resourceVersion = String(revision);
  return obj;
}

/**
 * Upstream refuses a create only when resourceVersion parses (strconv.ParseUint) to a non-zero
 * number; anything else ("", "0", "abc") is dropped on the way to storage.
 */
function isNonZeroUint64(rv: string): boolean {
  return /^\d+$/.test(rv) && /[1-9]/.test(rv) && BigInt(rv) < 2n ** 64n;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

function checkPreconditions(key: string, obj: KubeObject, p: Preconditions | undefined): void {
  if (p === undefined) return;
  if (p.uid !== undefined && p.uid !== obj.metadata.uid) {
    throw new StorageError(
      'PreconditionFailed',
      key,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw new StorageError(
      'PreconditionFailed',
      key,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
}

function translateKvError(err: unknown, key: string): never {
  if (err instanceof KvCompactedError)
    throw new StorageError('Expired', key, err.message, err.compactRevision);
  if (err instanceof KvFutureRevisionError) {
    throw new StorageError('TooLargeResourceVersion', key, err.message, err.currentRevision);
  }
  throw err;
}

/**
 * The event with its previous object decoded only when asked for: the watch cache and watches
 * without selectors never look at it (only selector filtering does), and decoding it was a second
 * JSON parse for every change.
 */
function withPrev(ev: ObjectWatchEvent, prevKv: KeyValue, codec: StorageCodec): ObjectWatchEvent {
  let prev: KubeObject | undefined;
  return Object.defineProperty(ev, 'prevObject', {
    enumerable: true,
    get: () => (prev ??= codec.decode(prevKv)),
  });
}

function decodeEvent(ev: KvEvent, codec: StorageCodec): ObjectWatchEvent | null {
  if (ev.type === 'put') {
    const object = codec.decode(ev.kv);
    if (ev.prevKv === undefined) return { type: 'ADDED', object };
    return withPrev({ type: 'MODIFIED', object }, ev.prevKv, codec);
  }
  if (ev.prevKv === undefined) return null;
  const object = codec.decode(ev.prevKv);
  object.metadata.resourceVersion = String(ev.kv.modRevision);
  return withPrev({ type: 'DELETED', object }, ev.prevKv, codec);
}

/**
 * The key as a cache last saw it: the object's bytes at its resourceVersion. The copy carries no
 * lease, so only objects stored without one may be passed (the registry passes none for TTL kinds).
 */
function cachedKv(key: string, obj: KubeObject, codec: StorageCodec): KeyValue {
  const modRevision = Number(obj.metadata.resourceVersion);
  // Encoded as storage would hold it (the codec leaves resourceVersion out), so an update that
  // changes nothing compares equal.
  const value = codec.encode(key, { ...obj, metadata: { ...obj.metadata } });
  return { key, value, createRevision: 0, modRevision, lease: 0 };
}

/**
 * Objects with one TTL created within a window share one lease, granted for the TTL plus that
 * window, as upstream's lease manager: 5% of the TTL, at most 60 s (an hour's Events share a
 * lease for a minute; a 1 s TTL gets a lease of its own).
 */
const leaseReuseSeconds = (ttl: number): number => Math.min(Math.floor(ttl * 0.05), 60);

export class KvObjectStore implements ObjectStore {
  readonly #kv: KvStore;
  /**
   * Each committed event is decoded once: the watch fan-out hands the same KvEvent to every
   * watcher of its key, so they all receive the same object (and the API server can serialize it
   * once). Watchers must treat event objects as read-only.
   */
  #decoded = new WeakMap<KvEvent, ObjectWatchEvent | null>();
  /** Shared with the per-resource views (forResource): one lease per TTL for the whole server. */
  #leases = new Map<number, { readonly id: number; readonly until: number; objects: number }>();
  /** Set on a per-resource view: its storage requests and lists are measured. */
  #meter: ResourceMeter | undefined;

  /**
   * `now`: milliseconds since the epoch that leases are timed in (default Date.now); the same
   * clock as the store's lease expiry.
   */
  readonly #now: () => number;

  readonly #codec: StorageCodec;

  /** `codec`: how objects are stored (default JSON). */
  constructor(kv: KvStore, options: { readonly now?: () => number; readonly codec?: StorageCodec } = {}) {
    this.#kv = kv;
    this.#now = options.now ?? Date.now;
    this.#codec = options.codec ?? jsonStorageCodec;
  }

  /**
   * The same store as seen by one resource ("pods", "deployments.apps"), whose requests feed
   * etcd_request_duration_seconds and the apiserver_storage_list_* metrics under that name.
   */
  forResource(resource: string): KvObjectStore {
    const view = new KvObjectStore(this.#kv, { now: this.#now, codec: this.#codec });
    view.#decoded = this.#decoded;
    view.#leases = this.#leases;
    view.#meter = new ResourceMeter(resource);
    return view;
  }

  /** `call` measured as one storage request of `op` when this is a resource's view. */
  #timed<T>(op: StorageOperation, call: Promise<T>): Promise<T> {
    return this.#meter === undefined ? call : this.#meter.time(op, call);
  }

  async create(
    key: string,
    obj: KubeObject,
    options: { readonly ttlSeconds?: number; readonly sideWrites?: SideWrites } = {},
  ): Promise<KubeObject> {
    if (isNonZeroUint64(obj.metadata.resourceVersion ?? '')) {
      throw new StorageError(
        'InvalidObject',
        key,
        'resourceVersion should not be set on objects to be created',
      );
    }
    const bytes = this.#codec.encode(key, obj);
    const lease =
      options.ttlSeconds !== undefined && options.ttlSeconds > 0
        ? await this.#leaseFor(options.ttlSeconds)
        : 0;
    const side = options.sideWrites;
    if (side === undefined) {
      const r = await this.#timed('create', this.#kv.create(key, bytes, lease > 0 ? { lease } : {}));
      if (!r.ok) throw new StorageError('KeyExists', key, `key exists: ${key}`);
      // The stored bytes are this object: hand it back with its revision instead of re-parsing.
      obj.metadata.resourceVersion = String(r.kv.modRevision);
      return obj;
    }
    const r = await this.#timed(
      'create',
      this.#kv.txn({
        compare: [{ key, target: 'create', operator: '=', value: 0 }, ...(side.compare ?? [])],
        success: [{ type: 'put', key, value: bytes, ...(lease > 0 ? { lease } : {}) }, ...(side.ops ?? [])],
        failure: [{ type: 'range', key, countOnly: true }],
      }),
    );
    if (!r.succeeded) {
      const exists = r.responses[0]?.type === 'range' && r.responses[0].count > 0;
      if (exists) throw new StorageError('KeyExists', key, `key exists: ${key}`);
      throw new StorageError(
        'SideConditionFailed',
        key,
        `a condition of the writes with ${key} did not hold`,
      );
    }
    obj.metadata.resourceVersion = String(r.revision);
    return obj;
  }

  /**
   * Writes `bytes` at `key` if it is still at `expected` (0: absent), with the side writes;
   * false when any condition failed (nothing written).
   */
  async #swap(
    key: string,
    bytes: Uint8Array,
    expected: KeyValue | undefined,
    side: SideWrites,
  ): Promise<number | undefined> {
    const lease = expected !== undefined && expected.lease > 0 ? { lease: expected.lease } : {};
    const r = await this.#timed(
      'update',
      this.#kv.txn({
        compare: [
          expected === undefined
            ? { key, target: 'create', operator: '=', value: 0 }
            : { key, target: 'mod', operator: '=', value: expected.modRevision },
          ...(side.compare ?? []),
        ],
        success: [{ type: 'put', key, value: bytes, ...lease }, ...(side.ops ?? [])],
      }),
    );
    return r.succeeded ? r.revision : undefined;
  }

  /** A lease that expires `ttl` (plus at most the reuse window) from now. */
  async #leaseFor(ttl: number): Promise<number> {
    const now = this.#now();
    const cached = this.#leases.get(ttl);
    if (cached !== undefined && now < cached.until) {
      cached.objects++;
      return cached.id;
    }
    const reuse = leaseReuseSeconds(ttl);
    const { id } = await this.#kv.grantLease(ttl + reuse);
    // Upstream's lease manager reports how many objects the lease it stops reusing carried.
    if (cached !== undefined) etcdLeaseObjectCounts.cell().observe(cached.objects);
    this.#leases.set(ttl, { id, until: now + reuse * 1000, objects: 1 });
    return id;
  }

  async get(key: string): Promise<KubeObject | undefined> {
    const r = await this.#timed('get', this.#kv.range({ key }));
    const kv = r.kvs[0];
    return kv === undefined ? undefined : this.#codec.decode(kv);
  }

  async #getKv(key: string): Promise<KeyValue | undefined> {
    return (await this.#timed('get', this.#kv.range({ key }))).kvs[0];
  }

  async list(options: ObjectListOptions): Promise<ObjectList> {
    const end = prefixEnd(options.prefix);
    let start = options.prefix;
    let revision = options.revision ?? 0;
    if (options.continueToken !== undefined) {
      const token = decodeContinue(options.continueToken);
      start = options.prefix + token.start;
      revision = Math.max(token.revision, 0);
    }
    const limit = options.limit ?? 0;
    const predicate = options.predicate;
    const items: KubeObject[] = [];
    let served = revision;
    let fetched = 0;
    let evaluated = 0;
    try {
      if (limit <= 0) {
        const r = await this.#timed('list', this.#kv.range({ key: start, end, revision }));
        served = r.revision;
        fetched = r.kvs.length;
        for (const kv of r.kvs) {
          const obj = this.#codec.decode(kv);
          evaluated++;
          if (predicate === undefined || predicate(obj)) items.push(obj);
        }
        return { items, revision: served };
      }
      // Fill the page with matches, reading in growing chunks at one fixed revision.
      // A huge limit (up to int64) is read in bounded chunks like any other.
      let chunk = Math.min(limit, maxChunk);
      let lastKey: string | undefined;
      let more = false;
      let total = 0;
      for (;;) {
        const r = await this.#timed(
          'list',
          this.#kv.range({ key: start, end, limit: chunk, revision: served }),
        );
        fetched += r.kvs.length;
        if (served === 0) served = r.revision;
        if (total === 0) total = r.count;
        let i = 0;
        for (; i < r.kvs.length && items.length < limit; i++) {
          const kv = r.kvs[i]!;
          lastKey = kv.key;
          const obj = this.#codec.decode(kv);
          evaluated++;
          if (predicate === undefined || predicate(obj)) items.push(obj);
        }
        if (items.length >= limit) {
          more = i < r.kvs.length || r.more;
          break;
        }
        if (!r.more) break;
        start = `${lastKey!}\u0000`;
        chunk = Math.min(chunk * 2, maxChunk);
      }
      if (!more || lastKey === undefined) return { items, revision: served };
      const next = `${lastKey}\u0000`.slice(options.prefix.length);
      const result: { -readonly [K in keyof ObjectList]: ObjectList[K] } = {
        items,
        revision: served,
        continueToken: encodeContinue({ revision: served, start: next }),
      };
      // Continued pages too, as etcd3's store: the keys from this page's start on, less the page.
      if (predicate === undefined) result.remainingItemCount = total - items.length;
      return result;
    } catch (err) {
      return translateKvError(err, options.prefix);
    } finally {
      // Recorded for failed lists too: they cost the same reads.
      this.#meter?.listed(fetched, evaluated, items.length);
    }
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: TryUpdate,
    options: GuaranteedUpdateOptions = {},
  ): Promise<KubeObject> {
    // Upstream's etcd3 GuaranteedUpdate with cachedExistingObject: the first attempt may start
    // from the cache's copy (saving a read); whatever goes wrong with a possibly stale copy (a
    // failed precondition or update function, nothing to write, a lost compare) reads storage.
    let cached =
      options.cachedExisting !== undefined ? cachedKv(key, options.cachedExisting, this.#codec) : undefined;
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const fromCache = cached !== undefined;
      const kv = cached ?? (await this.#getKv(key));
      cached = undefined;
      const current = kv === undefined ? undefined : this.#codec.decode(kv);
      if (current === undefined && options.ignoreNotFound !== true) {
        throw new StorageError('NotFound', key, `key not found: ${key}`);
      }
      let updated: KubeObject;
      let side: SideWrites | undefined;
      try {
        if (current !== undefined) checkPreconditions(key, current, options.preconditions);
        updated = await tryUpdate(current);
        side = await options.sideWrites?.(current, updated);
      } catch (err) {
        if (fromCache) continue;
        throw err;
      }
      if (side !== undefined) {
        if (kv === undefined) delete updated.metadata.resourceVersion;
        const bytes = this.#codec.encode(key, updated);
        // A stale value (read with an older encryption key) is rewritten even when unchanged.
        const unchanged = kv !== undefined && kv.stale !== true && bytesEqual(bytes, kv.value);
        if (unchanged && (side.ops ?? []).length === 0) {
          if (fromCache) continue;
          return withRevision(updated, kv.modRevision);
        }
        const revision = await this.#swap(key, bytes, kv, side);
        if (revision !== undefined) return withRevision(updated, revision);
        continue;
      }
      if (kv === undefined) {
        delete updated.metadata.resourceVersion;
        const r = await this.#timed('update', this.#kv.create(key, this.#codec.encode(key, updated)));
        if (r.ok) return withRevision(updated, r.kv.modRevision);
        continue;
      }
      const bytes = this.#codec.encode(key, updated);
      if (kv.stale !== true && bytesEqual(bytes, kv.value)) {
        if (fromCache) continue;
        return withRevision(updated, kv.modRevision);
      }
      const r = await this.#timed(
        'update',
        this.#kv.update(key, bytes, kv.modRevision, kv.lease > 0 ? { lease: kv.lease } : {}),
      );
      if (r.ok) return withRevision(updated, r.kv.modRevision);
    }
    throw new StorageError('ResourceVersionConflicts', key, `too many concurrent updates of ${key}`);
  }

  async delete(
    key: string,
    options: {
      readonly preconditions?: Preconditions;
      readonly validateDeletion?: (obj: KubeObject) => void | Promise<void>;
      readonly sideWrites?: SideWritesFor;
    } = {},
  ): Promise<KubeObject> {
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const kv = await this.#getKv(key);
      if (kv === undefined) throw new StorageError('NotFound', key, `key not found: ${key}`);
      const current = this.#codec.decode(kv);
      checkPreconditions(key, current, options.preconditions);
      await options.validateDeletion?.(current);
      const side = await options.sideWrites?.(current, undefined);
      if (side !== undefined) {
        const r = await this.#timed(
          'delete',
          this.#kv.txn({
            compare: [{ key, target: 'mod', operator: '=', value: kv.modRevision }, ...(side.compare ?? [])],
            success: [{ type: 'delete', key }, ...(side.ops ?? [])],
          }),
        );
        if (r.succeeded) return this.#codec.decode(kv);
        continue;
      }
      const r = await this.#timed('delete', this.#kv.delete(key, kv.modRevision));
      if (r.ok) {
        const last = this.#codec.decode(r.prevKv);
        return last;
      }
    }
    throw new StorageError('ResourceVersionConflicts', key, `too many concurrent updates of ${key}`);
  }

  async *watch(options: ObjectWatchOptions): AsyncIterable<ObjectWatchEvent> {
    let events: AsyncIterable<KvEvent>;
    try {
      events = this.#kv.watch({
        key: options.key,
        ...(options.recursive ? { end: prefixEnd(options.key) } : {}),
        ...(options.afterRevision > 0 ? { startRevision: options.afterRevision + 1 } : {}),
        prevKv: true,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
        ...(options.onStalled !== undefined ? { onStalled: options.onStalled } : {}),
        ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
      });
    } catch (err) {
      translateKvError(err, options.key);
    }
    try {
      for await (const ev of events) {
        let decoded = this.#decoded.get(ev);
        if (decoded === undefined) {
          decoded = decodeEvent(ev, this.#codec);
          this.#decoded.set(ev, decoded);
        }
        if (decoded !== null) yield decoded;
      }
    } catch (err) {
      translateKvError(err, options.key);
    }
  }

  get watchMaxQueuedEvents(): number | undefined {
    return this.#kv.watchMaxQueuedEvents;
  }

  compactedRevision(): Promise<number> {
    return this.#kv.compactedRevision();
  }

  currentRevision(): Promise<number> {
    return this.#kv.currentRevision();
  }

  async count(prefix: string): Promise<number> {
    const r = this.#kv.range({ key: prefix, end: prefixEnd(prefix), countOnly: true });
    return (await (this.#meter === undefined ? r : timeCount(prefix, r))).count;
  }
}
