/**
 * The KvStore on etcd v3 (`--storage etcd`): the contract was shaped after etcd, so most calls are
 * one etcd request. Keys under `prefix.local` (nanokube's `/registry`) are stored under
 * `prefix.remote` (`--etcd-prefix`), as kube-apiserver stores them, so each could read the
 * other's keys. Revisions are etcd's own, shared by every API server on the cluster.
 *
 * Create, update and delete are transactions comparing the key's create or mod revision; the
 * lease of a put is etcd's lease. Leases this store grants get IDs it chooses below 2^53 (etcd
 * accepts a requested ID), so they are plain numbers; a lease someone else granted (a random
 * 64-bit ID) reads as a negative number standing for it, and writes with that number use it.
 *
 * What etcd cannot do: `restore()` of a snapshot (etcd assigns every revision itself) is refused;
 * use etcd's own snapshots (`etcdctl snapshot save/restore`) instead.
 */
import {
  KvClosedError,
  KvCompactedError,
  KvDuplicateKeyError,
  KvFutureRevisionError,
  KvLeaseNotFoundError,
} from '../errors.js';
import { checkWatchStart } from '../revision-checks.js';
import type {
  CreateResult,
  DeleteResult,
  KeyValue,
  KvEvent,
  KvSnapshot,
  SnapshotLease,
  KvStore,
  Lease,
  PutOptions,
  RangeOptions,
  RangeResult,
  SwapResult,
  TxnCompare,
  TxnOp,
  TxnOpResult,
  TxnRequest,
  TxnResponse,
  WatchOptions,
} from '../types.js';
import { prefixEnd } from '../types.js';
import { EtcdError } from './client.js';
import type { EtcdClient } from './client.js';
import { runCompactor } from './compactor.js';
import { EtcdWatch } from './etcd-watch.js';
import { CompareResult, CompareTarget, EventType } from './proto.js';
import type { Compare, EtcdKeyValue, RequestOp, ResponseOp, WatchEvent } from './proto.js';

export interface EtcdKvOptions {
  readonly client: EtcdClient;
  /**
   * Keys starting with `local` are stored with `remote` in its place (default: keys as they are).
   * Every key this store is given must start with `local`.
   */
  readonly prefix?: { readonly local: string; readonly remote: string };
  /** Events a watcher may hold undelivered before it is cut off (default 10,000). */
  readonly watchMaxQueuedEvents?: number;
  /**
   * Revisions are shown as etcd's minus this (default 0). A new etcd is at revision 1 where the
   * contract's empty store is at 0: the conformance suite, which counts from 0, opens with 1.
   */
  readonly revisionBase?: number;
  /**
   * Take part in the compaction shared by every server on the etcd (compactor.ts) every this
   * many ms until the store closes (default 0: none).
   */
  readonly compactionIntervalMs?: number;
  /** Told when this store compacted etcd, or a compaction round failed. */
  readonly onCompacted?: (revision: number) => void;
  readonly onCompactionError?: (err: unknown) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const empty: Uint8Array = new Uint8Array(0);

/** etcd's messages for the errors the contract names (etcdserver/api/v3rpc/rpctypes). */
const compactedText = 'required revision has been compacted';
const futureText = 'required revision is a future revision';
const leaseNotFoundText = 'requested lease not found';
const duplicateText = 'duplicate key given in txn request';

/** The highest lease ID this store picks: below 2^53, so it is exact as a number. */
const maxOwnLeaseId = 2 ** 53 - 1;

export class EtcdKv implements KvStore {
  readonly backend = 'etcd';
  readonly watchMaxQueuedEvents: number;
  readonly #client: EtcdClient;
  readonly #local: string;
  readonly #remote: string;
  readonly #watches = new Set<EtcdWatch>();
  readonly #base: number;
  readonly #stopCompactor = new AbortController();
  readonly #compactor: Promise<void> | undefined;
  #closed = false;
  /** The compaction revision as far as this store knows (its own compactions, etcd's answers). */
  #compacted = 0;
  /** Leases granted elsewhere: the negative numbers standing for their 64-bit IDs. */
  readonly #foreignIds = new Map<bigint, number>();
  readonly #foreignNumbers = new Map<number, bigint>();

  constructor(o: EtcdKvOptions) {
    this.#client = o.client;
    this.#local = o.prefix?.local ?? '';
    this.#remote = o.prefix?.remote ?? '';
    this.watchMaxQueuedEvents = o.watchMaxQueuedEvents ?? 10_000;
    this.#base = o.revisionBase ?? 0;
    this.#compactor =
      (o.compactionIntervalMs ?? 0) > 0
        ? runCompactor({
            client: o.client,
            intervalMs: o.compactionIntervalMs ?? 0,
            signal: this.#stopCompactor.signal,
            ...(o.onCompacted !== undefined ? { onCompacted: o.onCompacted } : {}),
            ...(o.onCompactionError !== undefined ? { onError: o.onCompactionError } : {}),
          })
        : undefined;
  }

  /** etcd's revision as this store shows it (0, "none", stays 0). */
  #out(rev: number): number {
    return rev === 0 ? 0 : rev - this.#base;
  }

  /** A revision this store was given, as etcd's. */
  #in(rev: number): number {
    return rev === 0 ? 0 : rev + this.#base;
  }

  // ---- keys, values, leases ----

  #key(key: string): Uint8Array {
    if (!key.startsWith(this.#local)) throw new Error(`key ${JSON.stringify(key)} is outside ${this.#local}`);
    const remote = this.#remote + key.slice(this.#local.length);
    // etcd has no empty key: the range from '' starts at "\0", the least key.
    return encoder.encode(remote === '' ? '\u0000' : remote);
  }

  /** The end of a range [key, end): a key under `local`, or the end of everything under it. */
  #end(end: string | undefined): Uint8Array | undefined {
    if (end === undefined) return undefined;
    if (end.startsWith(this.#local)) return this.#key(end);
    if (end === prefixEnd(this.#local)) return encoder.encode(prefixEnd(this.#remote));
    throw new Error(`range end ${JSON.stringify(end)} is outside ${this.#local}`);
  }

  /** A key no object has: reads of it only tell the revision. */
  #probeKey(): Uint8Array {
    return encoder.encode(`${this.#remote}\u0000`);
  }

  #localKey(key: Uint8Array): string {
    return this.#local + decoder.decode(key).slice(this.#remote.length);
  }

  #leaseNumber(id: bigint): number {
    if (id === 0n) return 0;
    if (id > 0n && id <= BigInt(maxOwnLeaseId)) return Number(id);
    let n = this.#foreignIds.get(id);
    if (n === undefined) {
      n = -(this.#foreignIds.size + 1);
      this.#foreignIds.set(id, n);
      this.#foreignNumbers.set(n, id);
    }
    return n;
  }

  #leaseId(n: number): bigint {
    if (n < 0) {
      const id = this.#foreignNumbers.get(n);
      if (id === undefined) throw new KvLeaseNotFoundError(n);
      return id;
    }
    return BigInt(n);
  }

  #kv(kv: EtcdKeyValue): KeyValue {
    return {
      key: this.#localKey(kv.key),
      value: kv.value,
      createRevision: this.#out(kv.createRevision),
      modRevision: this.#out(kv.modRevision),
      lease: this.#leaseNumber(kv.lease),
    };
  }

  #event(ev: WatchEvent): KvEvent {
    const prevKv = ev.prevKv === undefined ? undefined : this.#kv(ev.prevKv);
    const kv: KeyValue =
      ev.type === EventType.DELETE
        ? {
            key: this.#localKey(ev.kv.key),
            value: empty,
            createRevision: 0,
            modRevision: this.#out(ev.kv.modRevision),
            lease: 0,
          }
        : this.#kv(ev.kv);
    return {
      type: ev.type === EventType.DELETE ? 'delete' : 'put',
      kv,
      ...(prevKv !== undefined ? { prevKv } : {}),
    };
  }

  // ---- errors ----

  #open(): void {
    if (this.#closed) throw new KvClosedError();
  }

  /** etcd's refusals as the contract's errors; anything else as it is. */
  #translate(err: unknown, ctx: { revision?: number; lease?: number; key?: string } = {}): Error {
    if (!(err instanceof EtcdError)) return err instanceof Error ? err : new Error(String(err));
    if (err.details.includes(compactedText)) {
      return new KvCompactedError(ctx.revision ?? 0, Math.max(this.#compacted, ctx.revision ?? 0));
    }
    if (err.details.includes(futureText)) {
      return new KvFutureRevisionError(ctx.revision ?? 0, this.#out(this.#client.seenRevision));
    }
    if (err.details.includes(leaseNotFoundText)) return new KvLeaseNotFoundError(ctx.lease ?? 0);
    if (err.details.includes(duplicateText)) return new KvDuplicateKeyError(ctx.key ?? '');
    return err;
  }

  // ---- reads ----

  async currentRevision(): Promise<number> {
    this.#open();
    const r = await this.#client.range({ key: this.#probeKey(), countOnly: true });
    return this.#out(r.header.revision);
  }

  /**
   * The revision etcd compacted at: reads below it fail. etcd does not say it directly, so it is
   * found between what this store knows and the current revision by probing reads (a handful).
   */
  async compactedRevision(): Promise<number> {
    this.#open();
    const current = await this.currentRevision();
    const key = this.#probeKey();
    const readable = async (rev: number): Promise<boolean> => {
      try {
        await this.#client.range({ key, revision: this.#in(rev), countOnly: true });
        return true;
      } catch (err) {
        if (err instanceof EtcdError && err.details.includes(compactedText)) return false;
        throw err;
      }
    };
    let lo = Math.max(1, this.#compacted);
    if (current === 0 || (await readable(lo))) {
      return this.#compacted;
    }
    // lo is not readable; find the first readable revision in (lo, current].
    let hi = current;
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await readable(mid)) hi = mid;
      else lo = mid;
    }
    this.#compacted = hi;
    return hi;
  }

  async range(o: RangeOptions): Promise<RangeResult> {
    this.#open();
    const end = this.#end(o.end);
    try {
      const r = await this.#client.range({
        key: this.#key(o.key),
        ...(end !== undefined ? { rangeEnd: end } : {}),
        ...(o.limit !== undefined && o.limit > 0 ? { limit: o.limit } : {}),
        ...(o.revision !== undefined && o.revision > 0 ? { revision: this.#in(o.revision) } : {}),
        ...(o.countOnly === true ? { countOnly: true } : {}),
      });
      return {
        kvs: r.kvs.map((kv) => this.#kv(kv)),
        more: r.more,
        count: r.count,
        revision: o.revision !== undefined && o.revision > 0 ? o.revision : this.#out(r.header.revision),
      };
    } catch (err) {
      throw this.#translate(err, o.revision !== undefined ? { revision: o.revision } : {});
    }
  }

  // ---- writes ----

  async create(key: string, value: Uint8Array, options: PutOptions = {}): Promise<CreateResult> {
    const r = await this.txn({
      compare: [{ key, target: 'create', operator: '=', value: 0 }],
      success: [
        { type: 'put', key, value, ...(options.lease !== undefined ? { lease: options.lease } : {}) },
      ],
      failure: [{ type: 'range', key }],
    });
    const first = r.responses[0];
    if (r.succeeded && first?.type === 'put') return { ok: true, kv: first.kv };
    const current = first?.type === 'range' ? first.kvs[0] : undefined;
    if (current === undefined) throw new Error(`etcd: create of ${key} failed and the key is absent`);
    return { ok: false, current };
  }

  async update(
    key: string,
    value: Uint8Array,
    expectedModRevision: number,
    options: PutOptions = {},
  ): Promise<SwapResult> {
    const r = await this.txn({
      // The key must exist: etcd's mod revision of an absent key is 0 too.
      compare: [
        { key, target: 'create', operator: '>', value: 0 },
        { key, target: 'mod', operator: '=', value: expectedModRevision },
      ],
      success: [
        { type: 'put', key, value, ...(options.lease !== undefined ? { lease: options.lease } : {}) },
      ],
      failure: [{ type: 'range', key }],
    });
    const first = r.responses[0];
    if (r.succeeded && first?.type === 'put' && first.prevKv !== undefined) {
      return { ok: true, kv: first.kv, prevKv: first.prevKv };
    }
    const current = first?.type === 'range' ? first.kvs[0] : undefined;
    return current === undefined ? { ok: false } : { ok: false, current };
  }

  async delete(key: string, expectedModRevision?: number): Promise<DeleteResult> {
    const r = await this.txn({
      compare:
        expectedModRevision === undefined
          ? []
          : [{ key, target: 'mod', operator: '=', value: expectedModRevision }],
      success: [{ type: 'delete', key }],
      failure: [{ type: 'range', key }],
    });
    const first = r.responses[0];
    if (r.succeeded && first?.type === 'delete' && first.prevKv !== undefined) {
      return { ok: true, revision: r.revision, prevKv: first.prevKv };
    }
    const current = first?.type === 'range' ? first.kvs[0] : undefined;
    return current === undefined ? { ok: false } : { ok: false, current };
  }

  #compare(c: TxnCompare): Compare {
    const result = {
      '=': CompareResult.EQUAL,
      '!=': CompareResult.NOT_EQUAL,
      '<': CompareResult.LESS,
      '>': CompareResult.GREATER,
    }[c.operator];
    const key = this.#key(c.key);
    if (c.target === 'value') return { key, result, target: CompareTarget.VALUE, value: c.value };
    if (c.target === 'lease')
      return { key, result, target: CompareTarget.LEASE, value: this.#leaseId(c.value) };
    return {
      key,
      result,
      target: c.target === 'mod' ? CompareTarget.MOD : CompareTarget.CREATE,
      value: this.#in(c.value),
    };
  }

  #op(op: TxnOp): RequestOp {
    if (op.type === 'put') {
      return {
        put: {
          key: this.#key(op.key),
          value: op.value,
          ...(op.lease !== undefined && op.lease !== 0 ? { lease: this.#leaseId(op.lease) } : {}),
          prevKv: true,
        },
      };
    }
    if (op.type === 'delete') return { deleteRange: { key: this.#key(op.key), prevKv: true } };
    const end = this.#end(op.end);
    return {
      range: {
        key: this.#key(op.key),
        ...(end !== undefined ? { rangeEnd: end } : {}),
        ...(op.limit !== undefined && op.limit > 0 ? { limit: op.limit } : {}),
        ...(op.countOnly === true ? { countOnly: true } : {}),
      },
    };
  }

  /**
   * `revision` is the txn's; a range sees the state at the point of the txn it is at: the
   * revision before the txn until a write of the branch changed something.
   */
  #result(op: TxnOp, res: ResponseOp, revision: number, readAt: number): TxnOpResult {
    if (op.type === 'put' && 'put' in res) {
      const prevKv = res.put.prevKv === undefined ? undefined : this.#kv(res.put.prevKv);
      return {
        type: 'put',
        kv: {
          key: op.key,
          value: op.value,
          createRevision: prevKv?.createRevision ?? revision,
          modRevision: revision,
          lease: op.lease ?? 0,
        },
        ...(prevKv !== undefined ? { prevKv } : {}),
      };
    }
    if (op.type === 'delete' && 'deleteRange' in res) {
      const prev = res.deleteRange.prevKvs[0];
      return {
        type: 'delete',
        deleted: res.deleteRange.deleted > 0 ? 1 : 0,
        ...(prev !== undefined ? { prevKv: this.#kv(prev) } : {}),
      };
    }
    if ('range' in res) {
      return {
        type: 'range',
        kvs: res.range.kvs.map((kv) => this.#kv(kv)),
        more: res.range.more,
        count: res.range.count,
        revision: readAt,
      };
    }
    throw new Error('etcd: a txn answer does not match its request');
  }

  async txn(request: TxnRequest): Promise<TxnResponse> {
    this.#open();
    // The contract names the duplicate key; etcd only says there is one: find it first.
    for (const branch of [request.success ?? [], request.failure ?? []]) {
      const written = new Set<string>();
      for (const op of branch) {
        if (op.type === 'range') continue;
        if (written.has(op.key)) throw new KvDuplicateKeyError(op.key);
        written.add(op.key);
      }
    }
    const success = request.success ?? [];
    const failure = request.failure ?? [];
    const lease = [...success, ...failure].find(
      (op) => op.type === 'put' && op.lease !== undefined && op.lease !== 0,
    );
    try {
      const r = await this.#client.txn({
        compare: (request.compare ?? []).map((c) => this.#compare(c)),
        success: success.map((op) => this.#op(op)),
        failure: failure.map((op) => this.#op(op)),
      });
      const ops = r.succeeded ? success : failure;
      const revision = this.#out(r.header.revision);
      const changes = (res: ResponseOp | undefined): boolean =>
        res !== undefined && ('put' in res || ('deleteRange' in res && res.deleteRange.deleted > 0));
      const wrote = r.responses.some(changes);
      let changed = false;
      const responses = ops.map((op, i) => {
        const res = r.responses[i]!;
        const out = this.#result(op, res, revision, changed || !wrote ? revision : revision - 1);
        changed ||= changes(res);
        return out;
      });
      return { succeeded: r.succeeded, revision, responses };
    } catch (err) {
      throw this.#translate(
        err,
        lease?.type === 'put' && lease.lease !== undefined ? { lease: lease.lease } : {},
      );
    }
  }

  // ---- watches ----

  watch(options: WatchOptions): AsyncIterable<KvEvent> {
    this.#open();
    const start = options.startRevision ?? 0;
    checkWatchStart(start, this.#compacted);
    // "From now" is when watch() is called, not when etcd gets round to registering the watch: a
    // write answered before this call is not seen, one answered after it is. So it starts after
    // the latest revision this client has seen (etcd's own "now" only while it has seen none).
    const seen = this.#client.seenRevision;
    const from = start > 0 ? this.#in(start) : seen > 0 ? seen + 1 : 0;
    const end = this.#end(options.end);
    const w = new EtcdWatch({
      client: this.#client,
      key: this.#key(options.key),
      ...(end !== undefined ? { rangeEnd: end } : {}),
      startRevision: from,
      revisionOut: (rev) => this.#out(rev),
      prevKv: options.prevKv === true,
      maxQueued: this.watchMaxQueuedEvents,
      signal: options.signal,
      onStalled: options.onStalled,
      onProgress: options.onProgress,
      toEvent: (ev) => this.#event(ev),
      unregister: (x) => this.#watches.delete(x),
    });
    if (options.signal?.aborted !== true) this.#watches.add(w);
    return w;
  }

  // ---- compaction ----

  async compact(revision: number): Promise<void> {
    this.#open();
    if (revision <= this.#compacted) return;
    try {
      await this.#client.compact(this.#in(revision));
    } catch (err) {
      if (err instanceof EtcdError && err.details.includes(compactedText)) {
        // Another server compacted further already.
        return;
      }
      throw this.#translate(err, { revision });
    }
    this.#compacted = Math.max(this.#compacted, revision);
  }

  // ---- leases ----

  async grantLease(ttlSeconds: number): Promise<Lease> {
    this.#open();
    for (;;) {
      const id = BigInt(1 + Math.floor(Math.random() * maxOwnLeaseId));
      try {
        const r = await this.#client.leaseGrant(ttlSeconds, id);
        if (r.error !== '') throw new Error(`etcd: lease grant: ${r.error}`);
        return { id: Number(r.id), ttlSeconds: r.ttl };
      } catch (err) {
        // Another lease has this ID (1 in 2^53): pick again.
        if (err instanceof EtcdError && err.details.includes('lease already exists')) continue;
        throw err;
      }
    }
  }

  async keepAliveLease(id: number): Promise<void> {
    this.#open();
    const ttl = await this.#client.leaseKeepAlive(this.#leaseId(id));
    if (ttl <= 0) throw new KvLeaseNotFoundError(id);
  }

  async revokeLease(id: number): Promise<void> {
    this.#open();
    try {
      await this.#client.leaseRevoke(this.#leaseId(id));
    } catch (err) {
      throw this.#translate(err, { lease: id });
    }
  }

  // ---- whole store ----

  async snapshot(): Promise<KvSnapshot> {
    this.#open();
    const all = await this.#client.range({
      key: encoder.encode(this.#remote === '' ? '\0' : this.#remote),
      rangeEnd: encoder.encode(this.#remote === '' ? '\0' : prefixEnd(this.#remote)),
    });
    // Each lease the keys are attached to, with its granted TTL and what is left of it; keys
    // whose lease has just expired are left out (etcd is deleting them).
    const leases = new Map<bigint, SnapshotLease | undefined>();
    for (const kv of all.kvs) {
      if (kv.lease === 0n || leases.has(kv.lease)) continue;
      const t = await this.#client.leaseTimeToLive(kv.lease);
      leases.set(
        kv.lease,
        t.ttl < 0
          ? undefined
          : { id: this.#leaseNumber(kv.lease), ttlSeconds: t.grantedTtl, remainingMs: t.ttl * 1000 },
      );
    }
    return {
      revision: this.#out(all.header.revision),
      kvs: all.kvs
        .filter((kv) => kv.lease === 0n || leases.get(kv.lease) !== undefined)
        .map((kv) => this.#kv(kv)),
      leases: [...leases.values()].filter((l): l is SnapshotLease => l !== undefined),
    };
  }

  /** Each member's database size in bytes (-1 for one that does not answer), by endpoint URL. */
  async storageSizes(): Promise<ReadonlyMap<string, number>> {
    const each = await this.#client.statusOfEach();
    return new Map(each.map((e) => [e.endpoint, e.status?.dbSize ?? -1]));
  }

  restore(): Promise<number> {
    return Promise.reject(
      new Error(
        'restoring a snapshot into etcd is not supported: etcd assigns every revision itself (use etcdctl snapshot restore)',
      ),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopCompactor.abort();
    await this.#compactor;
    for (const w of [...this.#watches]) w.close();
    this.#watches.clear();
    this.#client.close();
  }
}
