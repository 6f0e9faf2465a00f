/**
 * A watch feed whose objects go through an asynchronous conversion (a CRD's conversion webhook)
 * before the watch handler takes them: events are taken from the inner feed in order, the data
 * events of each batch converted in one call, and handed on in the same order. A failed
 * conversion ends the watch with an InternalError ERROR event, as upstream's watch does when its
 * decoder fails.
 */
import { apiErrors } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import type { JsonObject } from '../util/json.js';
import type { WatchEvent } from './generic/watch.js';

/** What the watch handler needs of a feed (WatchFeed's pull interface). */
export interface EventFeed {
  listen(listener: (() => void) | undefined): void;
  readonly done: boolean;
  take(): WatchEvent | undefined;
  close(): void;
  /** Events are being converted: a BOOKMARK now could overtake them. */
  readonly busy?: boolean;
}

function isData(ev: WatchEvent): boolean {
  return ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED';
}

export class ConvertingFeed implements EventFeed {
  readonly #inner: EventFeed;
  readonly #convert: (objects: readonly KubeObject[]) => Promise<KubeObject[]>;
  readonly #ready: WatchEvent[] = [];
  #listener: (() => void) | undefined;
  #busy = false;
  #failed = false;
  #closed = false;

  constructor(inner: EventFeed, convert: (objects: readonly KubeObject[]) => Promise<KubeObject[]>) {
    this.#inner = inner;
    this.#convert = convert;
  }

  get busy(): boolean {
    return this.#busy;
  }

  listen(listener: (() => void) | undefined): void {
    this.#listener = listener;
    this.#inner.listen(listener === undefined ? undefined : () => this.#pump());
    if (listener !== undefined) this.#pump();
  }

  get done(): boolean {
    return this.#ready.length === 0 && !this.#busy && (this.#failed || this.#closed || this.#inner.done);
  }

  take(): WatchEvent | undefined {
    return this.#ready.shift();
  }

  close(): void {
    this.#closed = true;
    this.#ready.length = 0;
    this.#inner.close();
  }

  #pump(): void {
    if (this.#busy || this.#failed || this.#closed) return;
    const batch: WatchEvent[] = [];
    for (let ev = this.#inner.take(); ev !== undefined; ev = this.#inner.take()) batch.push(ev);
    if (batch.length === 0) {
      if (this.#inner.done) this.#listener?.();
      return;
    }
    this.#busy = true;
    const objects = batch.filter(isData).map((ev) => ev.object as KubeObject);
    const converted = objects.length === 0 ? Promise.resolve([]) : this.#convert(objects);
    converted.then(
      (out) => {
        let i = 0;
        for (const ev of batch) {
          if (!isData(ev)) this.#ready.push(ev);
          else this.#ready.push({ type: ev.type, object: out[i++] as unknown as JsonObject });
        }
        this.#finishBatch();
      },
      (err: unknown) => {
        this.#failed = true;
        this.#ready.push({
          type: 'ERROR',
          object: apiErrors.internal(err).status as unknown as JsonObject,
        });
        this.#inner.close();
        this.#finishBatch();
      },
    );
  }

  #finishBatch(): void {
    this.#busy = false;
    if (this.#closed) {
      this.#ready.length = 0;
      return;
    }
    this.#listener?.();
    // More may have arrived while converting.
    this.#pump();
  }
}
