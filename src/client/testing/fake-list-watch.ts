/**
 * Test support: a scripted stand-in for the REST client's `request` and `watch`, for informer
 * tests. Lists answer from a queue of results; each watch is a channel the test feeds.
 */
import type { JsonObject } from '../../util/json.js';
import type { ListWatchClient } from '../shared-informer.js';
import type { WatchEvent } from '../watch-event.js';

/** One watch the informer opened: the test pushes events, ends it or breaks it. */
export class WatchChannel {
  readonly path: string;
  readonly #items: (WatchEvent | { readonly end: true } | { readonly fail: Error })[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(path: string) {
    this.path = path;
  }

  /** Whether the informer stopped reading (it left the loop or its signal aborted). */
  get closed(): boolean {
    return this.#closed;
  }

  push(ev: WatchEvent): void {
    this.#items.push(ev);
    this.#wake?.();
  }

  /** The server ends the watch normally. */
  end(): void {
    this.#items.push({ end: true });
    this.#wake?.();
  }

  /** The connection breaks. */
  fail(err: Error): void {
    this.#items.push({ fail: err });
    this.#wake?.();
  }

  async *events(signal: AbortSignal): AsyncGenerator<WatchEvent> {
    try {
      for (;;) {
        const item = this.#items.shift();
        if (item === undefined) {
          if (signal.aborted) return;
          await new Promise<void>((resolve) => {
            const done = (): void => {
              this.#wake = undefined;
              signal.removeEventListener('abort', done);
              resolve();
            };
            this.#wake = done;
            signal.addEventListener('abort', done, { once: true });
          });
          continue;
        }
        if ('end' in item) return;
        if ('fail' in item) throw item.fail;
        yield item;
      }
    } finally {
      this.#closed = true;
    }
  }
}

export type ListAnswer = JsonObject | Error;

export class FakeListWatch implements ListWatchClient {
  /** Paths of every request, in order. */
  readonly requests: string[] = [];
  readonly watches: WatchChannel[] = [];
  readonly #answers: ListAnswer[] = [];
  readonly #watchWaiters: ((w: WatchChannel) => void)[] = [];
  readonly #requestWaiters: (() => void)[] = [];

  /** Queues the answers of the next list requests. */
  answer(...answers: ListAnswer[]): void {
    this.#answers.push(...answers);
    for (const w of this.#requestWaiters.splice(0)) w();
  }

  request(_method: string, path: string, o: { readonly signal?: AbortSignal } = {}): Promise<JsonObject> {
    this.requests.push(path);
    const next = (): Promise<JsonObject> => {
      const a = this.#answers.shift();
      if (a === undefined) {
        // No answer scripted yet: wait for one (or the abort).
        return new Promise<JsonObject>((resolve, reject) => {
          const onAbort = (): void => reject(new Error('aborted'));
          o.signal?.addEventListener('abort', onAbort, { once: true });
          this.#requestWaiters.push(() => {
            o.signal?.removeEventListener('abort', onAbort);
            resolve(next());
          });
        });
      }
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    };
    return next();
  }

  watch(path: string, signal: AbortSignal): AsyncGenerator<WatchEvent> {
    const ch = new WatchChannel(path);
    this.watches.push(ch);
    for (const w of this.#watchWaiters.splice(0)) w(ch);
    return ch.events(signal);
  }

  /** The watch number `n` (0-based), once the informer has opened it. */
  async nthWatch(n: number): Promise<WatchChannel> {
    for (;;) {
      const w = this.watches[n];
      if (w !== undefined) return w;
      await new Promise<WatchChannel>((resolve) => this.#watchWaiters.push(resolve));
    }
  }
}

/** A namespaced object with a resourceVersion (and optional extra fields). */
export function obj(namespace: string, name: string, rv: string, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { ...(namespace !== '' ? { namespace } : {}), name, resourceVersion: rv },
    ...extra,
  };
}

/** A list response. */
export function list(rv: string, items: JsonObject[], cont = ''): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMapList',
    metadata: { resourceVersion: rv, ...(cont !== '' ? { continue: cont } : {}) },
    items: items.map((i) =>
      Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'apiVersion' && k !== 'kind')),
    ),
  };
}
