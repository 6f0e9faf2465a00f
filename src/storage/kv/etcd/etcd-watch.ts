/**
 * One KvStore watch over an etcd Watch stream. Events come a revision at a time; the watch
 * remembers the next revision it needs, so when the stream breaks (a member died, a leader was
 * lost) it opens another, on the next endpoint, from exactly there: nothing is lost or repeated.
 * etcd answers a start below its compaction with the compaction revision: the watch then fails
 * with KvCompactedError (the API server's 410 Gone). A consumer that falls more than
 * `maxQueued` events behind is cut off (`onStalled`), as the other backends do.
 *
 * Progress (`onProgress`): when the consumer waits with nothing queued, the watch asks etcd for a
 * progress notification; etcd promises that every later event on the stream is newer than the
 * revision it reports, so the consumer has had everything up to it.
 */
import type { ServiceError } from '@grpc/grpc-js';
import { KvCompactedError } from '../errors.js';
import type { KvEvent } from '../types.js';
import type { EtcdClient } from './client.js';
import { GrpcCode } from './client.js';
import type { WatchEvent, WatchRequest, WatchResponse } from './proto.js';

export interface EtcdWatchOptions {
  readonly client: EtcdClient;
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  /** 0: from the next revision. */
  readonly startRevision: number;
  readonly prevKv: boolean;
  readonly maxQueued: number;
  readonly signal?: AbortSignal | undefined;
  readonly onStalled?: (() => void) | undefined;
  readonly onProgress?: ((revision: number) => void) | undefined;
  /** etcd's revision as the store shows it (progress and compaction revisions). */
  readonly revisionOut: (rev: number) => number;
  /** An etcd event as a KvEvent. */
  readonly toEvent: (ev: WatchEvent) => KvEvent;
  readonly unregister: (w: EtcdWatch) => void;
}

interface Waiter {
  readonly resolve: (r: IteratorResult<KvEvent>) => void;
  readonly reject: (e: Error) => void;
}

const DONE: IteratorResult<KvEvent> = { done: true, value: undefined };

export class EtcdWatch implements AsyncIterableIterator<KvEvent> {
  readonly #o: EtcdWatchOptions;
  #queue: KvEvent[] = [];
  #head = 0;
  #waiters: Waiter[] = [];
  #done = false;
  #error: Error | undefined;
  /** The first revision not yet received (0 until etcd says where a watch "from now" starts). */
  #nextRev: number;
  #stream: ReturnType<EtcdClient['watchStream']> | undefined;
  #progressAsked = false;
  /** A progress revision received while events were still queued. */
  #progressAt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #retries = 0;

  constructor(o: EtcdWatchOptions) {
    this.#o = o;
    this.#nextRev = o.startRevision;
    if (o.signal?.aborted === true) {
      this.#done = true;
      return;
    }
    o.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#connect();
  }

  readonly #onAbort = (): void => this.#finish();

  #connect(): void {
    if (this.#done) return;
    const opened = this.#o.client.watchStream();
    this.#stream = opened;
    const { stream } = opened;
    stream.on('data', (res: WatchResponse) => {
      if (this.#stream === opened) this.#onResponse(res);
    });
    const broken = (err?: ServiceError): void => {
      if (this.#stream !== opened || this.#done) return;
      this.#stream = undefined;
      const code: number | undefined = err?.code;
      if (code !== GrpcCode.CANCELLED) this.#o.client.streamFailed(opened.endpoint);
      this.#progressAsked = false;
      // Back off a little more each time, up to a second.
      const delay = Math.min(1000, 50 * 2 ** this.#retries++);
      this.#retryTimer = setTimeout(() => this.#connect(), delay);
    };
    stream.on('error', broken);
    stream.on('end', () => broken());
    const create: WatchRequest = {
      create: {
        key: this.#o.key,
        ...(this.#o.rangeEnd !== undefined ? { rangeEnd: this.#o.rangeEnd } : {}),
        ...(this.#nextRev > 0 ? { startRevision: this.#nextRev } : {}),
        prevKv: this.#o.prevKv,
        progressNotify: true,
      },
    };
    stream.write(create);
  }

  #onResponse(res: WatchResponse): void {
    this.#o.client.noteRevision(res.header);
    if (res.compactRevision > 0) {
      const out = this.#o.revisionOut;
      this.fail(new KvCompactedError(out(this.#nextRev), out(res.compactRevision)));
      return;
    }
    if (res.canceled) {
      // Canceled for another reason (no leader, ...): the stream ends and is opened again.
      this.#stream?.stream.cancel();
      return;
    }
    if (res.created) {
      this.#retries = 0;
      // A watch from "now" starts after the revision etcd was at.
      if (this.#nextRev === 0) this.#nextRev = res.header.revision + 1;
      return;
    }
    if (res.events.length === 0) {
      // A progress notification: every later event on this stream is newer than this revision.
      this.#progressAsked = false;
      const at = res.header.revision;
      if (at + 1 > this.#nextRev) this.#nextRev = at + 1;
      if (this.#head === this.#queue.length) this.#reportProgress(at);
      else this.#progressAt = at;
      return;
    }
    // A response may hold several revisions (etcd batches a watcher that is catching up). The
    // bound is checked before each revision is taken, so one large commit alone never cuts a
    // consumer off, and a batch cuts it off where a revision at a time would have.
    let revision = 0;
    for (const ev of res.events) {
      if (ev.kv.modRevision < this.#nextRev) continue;
      if (ev.kv.modRevision !== revision) {
        revision = ev.kv.modRevision;
        if (this.#queue.length - this.#head > this.#o.maxQueued) {
          this.#finish();
          this.#o.onStalled?.();
          return;
        }
      }
      this.#queue.push(this.#o.toEvent(ev));
    }
    // Without fragmenting (never asked for), a response holds whole revisions.
    const last = res.events[res.events.length - 1]!;
    this.#nextRev = Math.max(this.#nextRev, last.kv.modRevision + 1);
    this.#wake();
  }

  #reportProgress(at: number): void {
    if (this.#waiters.length > 0 && at > 0) this.#o.onProgress?.(this.#o.revisionOut(at));
  }

  #askProgress(): void {
    if (this.#o.onProgress === undefined || this.#progressAsked || this.#stream === undefined) return;
    this.#progressAsked = true;
    this.#stream.stream.write({ progress: true });
  }

  /** Ends the watch with `error`: `next()` rejects with it. */
  fail(error: Error): void {
    if (this.#done) return;
    this.#error = error;
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#finish();
    for (const w of waiters) w.reject(error);
  }

  next(): Promise<IteratorResult<KvEvent>> {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    const ev = this.#shift();
    if (ev !== undefined) return Promise.resolve({ done: false, value: ev });
    if (this.#done) return Promise.resolve(DONE);
    const waiting = new Promise<IteratorResult<KvEvent>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    if (this.#progressAt > 0) {
      const at = this.#progressAt;
      this.#progressAt = 0;
      this.#reportProgress(at);
    } else this.#askProgress();
    return waiting;
  }

  return(): Promise<IteratorResult<KvEvent>> {
    this.#finish();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<KvEvent> {
    return this;
  }

  /** Ends the watch (the store closes): waiting consumers see the end. */
  close(): void {
    this.#finish();
  }

  #shift(): KvEvent | undefined {
    if (this.#head === this.#queue.length) return undefined;
    const ev = this.#queue[this.#head++];
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return ev;
  }

  #wake(): void {
    while (this.#waiters.length > 0) {
      const ev = this.#shift();
      if (ev === undefined && !this.#done) return;
      this.#waiters.shift()!.resolve(ev === undefined ? DONE : { done: false, value: ev });
    }
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#queue = [];
    this.#head = 0;
    clearTimeout(this.#retryTimer);
    const s = this.#stream;
    this.#stream = undefined;
    s?.stream.cancel();
    this.#o.signal?.removeEventListener('abort', this.#onAbort);
    this.#o.unregister(this);
    this.#wake();
  }
}
