/**
 * Encryption at rest as a KvStore decorator: the seam where upstream's etcd3 store calls its
 * value.Transformer. Values of keys with a transformer are transformed on every write (puts of
 * create, update and txn) and read (range, the previous and current states writes hand back, txn
 * ranges, and watch events), with the storage key as authenticated data; everything above (the
 * object store, watch caches, the shared watch bytes) sees plaintext. Keys without a transformer
 * pass through untouched, but a value carrying an encryption prefix is refused (upstream's identity
 * transformer with the encryption check). A value read by any but the first provider comes back
 * with `stale: true` so the object store rewrites it on the next update. A value that does not
 * transform fails the read with an internal StorageError carrying upstream's message, never
 * garbage.
 */
import { StorageError } from '../errors.js';
import type {
  CreateResult,
  DeleteResult,
  KeyValue,
  KvSnapshot,
  KvEvent,
  KvStore,
  Lease,
  PutOptions,
  RangeOptions,
  RangeResult,
  SwapResult,
  TxnOp,
  TxnOpResult,
  TxnRequest,
  TxnResponse,
  WatchOptions,
} from '../kv/types.js';
import { looksEncrypted } from './encrypt/identity.js';
import type { Transformer } from './transformer.js';

export interface TransformingKvOptions {
  readonly inner: KvStore;
  /** The transformer of the value stored at `key`; undefined for keys of unconfigured resources. */
  readonly transformerFor: (key: string) => Transformer | undefined;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Upstream's texts: a get reports the transformer's error, a list names the key. */
function readError(key: string, list: boolean, msg: string): StorageError {
  return new StorageError('InternalError', key, list ? `unable to transform key "${key}": ${msg}` : msg);
}

export class TransformingKvStore implements KvStore {
  readonly #inner: KvStore;
  readonly #transformerFor: (key: string) => Transformer | undefined;
  /** Each committed event is transformed once; every watcher gets the same plaintext event. */
  readonly #events = new WeakMap<KvEvent, Promise<KvEvent>>();
  /** Writes reach the inner store in the order they were issued, however long each took to encrypt. */
  #tail: Promise<void> = Promise.resolve();

  constructor(options: TransformingKvOptions) {
    this.#inner = options.inner;
    this.#transformerFor = options.transformerFor;
    const max = options.inner.watchMaxQueuedEvents;
    if (max !== undefined) this.watchMaxQueuedEvents = max;
  }

  get backend(): string {
    return this.#inner.backend;
  }

  readonly watchMaxQueuedEvents?: number;

  currentRevision(): Promise<number> {
    return this.#inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.#inner.compactedRevision();
  }

  compact(revision: number): Promise<void> {
    return this.#inner.compact(revision);
  }

  grantLease(ttlSeconds: number): Promise<Lease> {
    return this.#inner.grantLease(ttlSeconds);
  }

  keepAliveLease(id: number): Promise<void> {
    return this.#inner.keepAliveLease(id);
  }

  revokeLease(id: number): Promise<void> {
    return this.#inner.revokeLease(id);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Values stay as stored (transformed): a snapshot of an encrypted store is encrypted. */
  snapshot(): Promise<KvSnapshot> {
    return this.#inner.snapshot();
  }

  restore(snapshot: KvSnapshot): Promise<number> {
    return this.#inner.restore(snapshot);
  }

  keyLayout(): number {
    return this.#inner.keyLayout?.() ?? 2;
  }

  setKeyLayout(version: number): Promise<void> {
    return this.#inner.setKeyLayout?.(version) ?? Promise.resolve();
  }

  storageSizes(): Promise<ReadonlyMap<string, number>> {
    return this.#inner.storageSizes?.() ?? Promise.resolve(new Map());
  }

  /** The plaintext of a stored key-value, or the same object when nothing is to be done. */
  #read(kv: KeyValue, list: boolean): KeyValue | Promise<KeyValue> {
    const t = this.#transformerFor(kv.key);
    if (t === undefined) {
      if (kv.value.byteLength > 0 && looksEncrypted(kv.value)) {
        throw readError(kv.key, list, 'identity transformer tried to read encrypted data');
      }
      return kv;
    }
    if (kv.value.byteLength === 0) return kv;
    return t.fromStorage(kv.value, Buffer.from(kv.key, 'utf8')).then(
      (out) => ({ ...kv, value: out.data, ...(out.stale ? { stale: true } : {}) }),
      (err: unknown) => {
        throw readError(kv.key, list, message(err));
      },
    );
  }

  async #readOptional(kv: KeyValue | undefined): Promise<KeyValue | undefined> {
    return kv === undefined ? undefined : this.#read(kv, false);
  }

  /** The bytes to store for `value` at `key`. */
  async #write(key: string, value: Uint8Array): Promise<Uint8Array> {
    const t = this.#transformerFor(key);
    if (t === undefined) return value;
    try {
      return await t.toStorage(value, Buffer.from(key, 'utf8'));
    } catch (err) {
      throw new StorageError('InternalError', key, message(err));
    }
  }

  /** Encrypts (`prepare`), then submits (`run`) after every write issued before this one. */
  async #inOrder<X, T>(prepare: Promise<X>, run: (x: X) => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    let submitted: Promise<T>;
    try {
      const x = await prepare;
      await previous;
      submitted = run(x);
    } finally {
      release();
    }
    return submitted;
  }

  /** The plaintext of a list of stored key-values; the same array when nothing changed. */
  #readAll(kvs: readonly KeyValue[], list: boolean): readonly KeyValue[] | Promise<readonly KeyValue[]> {
    const out = kvs.map((kv) => this.#read(kv, list));
    if (out.some((x) => x instanceof Promise)) return Promise.all(out.map(async (x) => x));
    return out.every((x, i) => x === kvs[i]) ? kvs : (out as KeyValue[]);
  }

  async range(options: RangeOptions): Promise<RangeResult> {
    const r = await this.#inner.range(options);
    if (r.kvs.length === 0) return r;
    const kvs = await this.#readAll(r.kvs, options.end !== undefined);
    return kvs === r.kvs ? r : { ...r, kvs };
  }

  async create(key: string, value: Uint8Array, options?: PutOptions): Promise<CreateResult> {
    const r = await this.#inOrder(this.#write(key, value), (v) => this.#inner.create(key, v, options));
    if (r.ok) return { ok: true, kv: { ...r.kv, value } };
    return { ok: false, current: await this.#read(r.current, false) };
  }

  async update(
    key: string,
    value: Uint8Array,
    expectedModRevision: number,
    options?: PutOptions,
  ): Promise<SwapResult> {
    const r = await this.#inOrder(this.#write(key, value), (v) =>
      this.#inner.update(key, v, expectedModRevision, options),
    );
    if (r.ok) return { ok: true, kv: { ...r.kv, value }, prevKv: await this.#read(r.prevKv, false) };
    const current = await this.#readOptional(r.current);
    return current === undefined ? { ok: false } : { ok: false, current };
  }

  async delete(key: string, expectedModRevision?: number): Promise<DeleteResult> {
    const r = await this.#inOrder(Promise.resolve(), () => this.#inner.delete(key, expectedModRevision));
    if (r.ok) return { ...r, prevKv: await this.#read(r.prevKv, false) };
    const current = await this.#readOptional(r.current);
    return current === undefined ? { ok: false } : { ok: false, current };
  }

  async txn(request: TxnRequest): Promise<TxnResponse> {
    for (const c of request.compare ?? []) {
      if (c.target === 'value' && this.#transformerFor(c.key) !== undefined) {
        // Ciphertexts differ on every write: a value compare on an encrypted key cannot hold.
        throw new StorageError(
          'InternalError',
          c.key,
          `value comparisons are not supported on encrypted key ${c.key}`,
        );
      }
    }
    const writeOps = async (ops: readonly TxnOp[] | undefined): Promise<TxnOp[] | undefined> =>
      ops === undefined
        ? undefined
        : Promise.all(
            ops.map(async (op) =>
              op.type === 'put' ? { ...op, value: await this.#write(op.key, op.value) } : op,
            ),
          );
    const r = await this.#inOrder(
      Promise.all([writeOps(request.success), writeOps(request.failure)]),
      ([success, failure]) =>
        this.#inner.txn({
          ...(request.compare !== undefined ? { compare: request.compare } : {}),
          ...(success !== undefined ? { success } : {}),
          ...(failure !== undefined ? { failure } : {}),
        }),
    );
    const ran = (r.succeeded ? request.success : request.failure) ?? [];
    const responses = await Promise.all(
      r.responses.map(async (res, i): Promise<TxnOpResult> => {
        const op = ran[i];
        if (res.type === 'put') {
          const value = op?.type === 'put' ? op.value : res.kv.value;
          const prevKv = await this.#readOptional(res.prevKv);
          return { type: 'put', kv: { ...res.kv, value }, ...(prevKv !== undefined ? { prevKv } : {}) };
        }
        if (res.type === 'delete') {
          const prevKv = await this.#readOptional(res.prevKv);
          return { type: 'delete', deleted: res.deleted, ...(prevKv !== undefined ? { prevKv } : {}) };
        }
        if (res.kvs.length === 0) return res;
        const kvs = await this.#readAll(res.kvs, op?.type === 'range' && op.end !== undefined);
        return kvs === res.kvs ? res : { ...res, kvs };
      }),
    );
    return { ...r, responses };
  }

  /** The plaintext event, or the same event when neither state needs transforming. */
  #event(ev: KvEvent): KvEvent | Promise<KvEvent> {
    const cached = this.#events.get(ev);
    if (cached !== undefined) return cached;
    const kv = ev.type === 'put' ? this.#read(ev.kv, false) : ev.kv;
    const prevKv = ev.prevKv === undefined ? undefined : this.#read(ev.prevKv, false);
    if (!(kv instanceof Promise) && !(prevKv instanceof Promise)) {
      if (kv === ev.kv && prevKv === ev.prevKv) return ev;
      return { ...ev, kv, ...(prevKv !== undefined ? { prevKv } : {}) };
    }
    const p = Promise.all([kv, prevKv]).then(([k, pk]) => ({
      ...ev,
      kv: k,
      ...(pk !== undefined ? { prevKv: pk } : {}),
    }));
    // Shared by every watcher of this event; a failure reaches each of them.
    p.catch(() => {});
    this.#events.set(ev, p);
    return p;
  }

  /** Like the inner store's: a compacted start revision still throws synchronously. */
  watch(options: WatchOptions): AsyncIterable<KvEvent> {
    const events = this.#inner.watch(options);
    const transform = (ev: KvEvent): KvEvent | Promise<KvEvent> => this.#event(ev);
    return (async function* transformed(): AsyncGenerator<KvEvent> {
      for await (const ev of events) {
        const out = transform(ev);
        yield out instanceof Promise ? await out : out;
      }
    })();
  }
}
