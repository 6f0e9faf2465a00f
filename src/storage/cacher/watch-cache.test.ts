import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import { StorageError } from '../errors.js';
import type { ObjectStore, ObjectWatchEvent, ObjectWatchOptions } from '../interfaces.js';
import { createMemoryKv } from '../kv/memory/memory-kv.js';
import { KvObjectStore } from '../object-store.js';
import { decodeContinue } from '../continue-token.js';
import { WatchCache } from './watch-cache.js';

const prefix = '/registry/configmaps/';
const cm = (ns: string, name: string, v: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns },
  data: { v },
});

async function ready(cache: WatchCache): Promise<void> {
  cache.start();
  for (let i = 0; i < 200 && !cache.ready; i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cache.ready);
}

async function settle(cache: WatchCache, storage: ObjectStore): Promise<void> {
  const want = await storage.currentRevision();
  for (let i = 0; i < 200 && cache.revision < want; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(cache.revision, want);
}

const iter = <T>(it: AsyncIterable<T>): AsyncIterator<T> => it[Symbol.asyncIterator]();

async function take(it: AsyncIterator<ObjectWatchEvent>, n: number): Promise<ObjectWatchEvent[]> {
  const out: ObjectWatchEvent[] = [];
  while (out.length < n) {
    const r = await it.next();
    if (r.done === true) break;
    out.push(r.value);
  }
  return out;
}

const v = (e: ObjectWatchEvent): string =>
  `${e.type} ${e.object.metadata.name ?? ''} ${String(e.object['data'] && (e.object['data'] as Record<string, string>)['v'])}`;

test('#8 watch cache: list and get from the state, watches from the window share event objects', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  await storage.create(`${prefix}a/x`, cm('a', 'x', '0'));
  const cache = new WatchCache({ storage, prefix, capacity: 10 });
  await ready(cache);
  await storage.create(`${prefix}b/y`, cm('b', 'y', '0'));
  await storage.create(`${prefix}a/w`, cm('a', 'w', '0'));
  await settle(cache, storage);
  assert.deepEqual(
    cache.list(`${prefix}a/`).items.map((o) => o.metadata.name),
    ['w', 'x'],
  );
  assert.equal(cache.list(prefix).items.length, 3);
  assert.equal(cache.get(`${prefix}b/y`)?.metadata.name, 'y');
  // Writes elsewhere move the cache's revision on too (storage's progress notification).
  await storage.create('/registry/secrets/a/s', cm('a', 's', '0'));
  await settle(cache, storage);
  const start = cache.revision;
  const abort = new AbortController();
  const one = cache.watch({
    key: `${prefix}a/`,
    recursive: true,
    afterRevision: start,
    signal: abort.signal,
  });
  const two = cache.watch({
    key: `${prefix}a/`,
    recursive: true,
    afterRevision: start,
    signal: abort.signal,
  });
  await storage.guaranteedUpdate(`${prefix}a/x`, () => cm('a', 'x', '1'));
  await storage.guaranteedUpdate(`${prefix}b/y`, () => cm('b', 'y', '1'));
  await storage.delete(`${prefix}a/w`);
  const [e1, e2] = [await take(one[Symbol.asyncIterator](), 2), await take(two[Symbol.asyncIterator](), 2)];
  assert.deepEqual(e1.map(v), ['MODIFIED x 1', 'DELETED w 0']);
  assert.ok(
    e1.every((e, i) => e === e2[i]),
    'every watcher gets the same event objects',
  );
  // From the window: a watch starting at `start` replays the same events.
  const late = cache.watch({ key: prefix, recursive: true, afterRevision: start, signal: abort.signal });
  assert.deepEqual((await take(late[Symbol.asyncIterator](), 3)).map(v), [
    'MODIFIED x 1',
    'MODIFIED y 1',
    'DELETED w 0',
  ]);
  abort.abort();
  cache.stop();
  await kv.close();
});

test('#8 watch cache: a start older than the window falls back to storage history', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  await storage.create(`${prefix}a/first`, cm('a', 'first', '0'));
  const cache = new WatchCache({ storage, prefix, capacity: 3 });
  await ready(cache);
  const from = cache.revision;
  for (let i = 0; i < 10; i++) await storage.create(`${prefix}a/c${i}`, cm('a', `c${i}`, '0'));
  await settle(cache, storage);
  const abort = new AbortController();
  const it = cache.watch({ key: prefix, recursive: true, afterRevision: from, signal: abort.signal });
  assert.equal(cache.watchers, 0, 'served by storage');
  assert.deepEqual(
    (await take(it[Symbol.asyncIterator](), 10)).map((e) => e.object.metadata.name),
    Array.from({ length: 10 }, (_, i) => `c${i}`),
  );
  abort.abort();
  cache.stop();
  await kv.close();
});

test('#8 watch cache: a watcher that stops reading is cut off; the others keep going', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  const cache = new WatchCache({ storage, prefix, maxQueuedEvents: 5 });
  await ready(cache);
  const abort = new AbortController();
  let stalled = false;
  const slow = cache.watch({
    key: prefix,
    recursive: true,
    afterRevision: 0,
    signal: abort.signal,
    onStalled: () => (stalled = true),
  });
  const fast = iter(cache.watch({ key: prefix, recursive: true, afterRevision: 0, signal: abort.signal }));
  const got: ObjectWatchEvent[] = [];
  for (let i = 0; i < 20; i++) {
    await storage.create(`${prefix}a/c${i}`, cm('a', `c${i}`, '0'));
    got.push(...(await take(fast, 1)));
  }
  assert.ok(stalled);
  assert.equal(cache.terminatedWatchers, 1, 'counted for apiserver_terminated_watchers_total');
  assert.equal(cache.eventsDispatched, 20);
  assert.equal(got.length, 20);
  assert.equal((await slow[Symbol.asyncIterator]().next()).done, true);
  abort.abort();
  cache.stop();
  await kv.close();
});

/** Storage whose watches break every `every` events, and optionally refuse one resume as compacted. */
class BreakingStore extends KvObjectStore {
  every: number;
  expireNext = false;
  watches = 0;
  constructor(every: number) {
    super(createMemoryKv());
    this.every = every;
  }
  override async *watch(options: ObjectWatchOptions): AsyncIterable<ObjectWatchEvent> {
    this.watches++;
    if (this.expireNext) {
      this.expireNext = false;
      throw new StorageError('Expired', options.key, 'compacted', options.afterRevision);
    }
    let n = 0;
    const inner = new AbortController();
    const onAbort = (): void => inner.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const ev of super.watch({ ...options, signal: inner.signal })) {
        yield ev;
        if (++n >= this.every) {
          options.onStalled?.();
          return;
        }
      }
    } finally {
      inner.abort();
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

test('#8 watch cache: re-initialisation after the storage watch breaks loses or duplicates nothing', async () => {
  const storage = new BreakingStore(3);
  const cache = new WatchCache({ storage, prefix, capacity: 1000 });
  await ready(cache);
  const abort = new AbortController();
  const it = iter(cache.watch({ key: prefix, recursive: true, afterRevision: 0, signal: abort.signal }));
  for (let i = 0; i < 20; i++) await storage.create(`${prefix}a/c${i}`, cm('a', `c${i}`, '0'));
  const events = await take(it, 20);
  assert.deepEqual(
    events.map((e) => e.object.metadata.name),
    Array.from({ length: 20 }, (_, i) => `c${i}`),
  );
  assert.ok(storage.watches >= 7, 'the storage watch broke and was resumed');
  assert.equal(cache.initialisations, 1, 'resumed from its revision without listing again');
  // A resume storage refuses (compacted): the cache lists again and ends the watches it served;
  // a client resuming from its last resourceVersion then misses nothing.
  const last = Number(events[19]!.object.metadata.resourceVersion);
  storage.expireNext = true;
  for (let i = 20; i < 23; i++) await storage.create(`${prefix}a/c${i}`, cm('a', `c${i}`, '0'));
  for (let i = 0; i < 200 && cache.initialisations < 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(cache.initialisations, 2);
  const rest = await take(it, 10);
  for (let i = 23; i < 26; i++) await storage.create(`${prefix}a/c${i}`, cm('a', `c${i}`, '0'));
  await settle(cache, storage);
  const seen = new Set(rest.map((e) => e.object.metadata.name));
  storage.every = Infinity; // the client's own watch (served by storage here) must not break
  const resumed = iter(
    cache.watch({ key: prefix, recursive: true, afterRevision: last, signal: abort.signal }),
  );
  const after = await take(resumed, 6);
  const names = [...rest, ...after].map((e) => e.object.metadata.name);
  assert.deepEqual(
    after.map((e) => e.object.metadata.name),
    Array.from({ length: 6 }, (_, i) => `c${20 + i}`),
  );
  assert.ok(names.length >= 6 && seen.size === rest.length);
  assert.equal(cache.list(prefix).items.length, 26);
  abort.abort();
  cache.stop();
});

test('#8 watch cache: reads do not wait for a cache whose filling fails', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  let failures = 0;
  const failing = new Proxy(storage, {
    get(target, prop) {
      if (prop === 'list') {
        return () => {
          failures++;
          return Promise.reject(new Error('broken'));
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const cache = new WatchCache({ storage: failing, prefix, retryDelayMs: 1000 });
  assert.equal(await cache.whenReady(3000), false);
  const started = Date.now();
  assert.equal(await cache.whenReady(3000), false);
  assert.ok(Date.now() - started < 100, 'no wait while failing');
  assert.ok(failures >= 1);
  cache.stop();
  await kv.close();
});

test('#28 watch cache: pages match storage pages at the same revision (KEP-4988 lists from the cache)', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  for (let i = 0; i < 23; i++) {
    const ns = ['a', 'b', 'c'][i % 3]!;
    await storage.create(
      `${prefix}${ns}/n${String(i).padStart(2, '0')}`,
      cm(ns, `n${String(i).padStart(2, '0')}`, String(i % 4)),
    );
  }
  await storage.delete(`${prefix}b/n04`);
  const cache = new WatchCache({ storage, prefix, capacity: 100 });
  await ready(cache);
  await settle(cache, storage);
  const odd = (o: KubeObject): boolean => Number((o['data'] as Record<string, string>)['v']) % 2 === 1;
  for (const listPrefix of [prefix, `${prefix}b/`, `${prefix}z/`]) {
    for (const limit of [1, 2, 5, 7, 100]) {
      for (const filter of [undefined, odd]) {
        const fromCache: string[][] = [];
        const fromStorage: string[][] = [];
        let start = listPrefix;
        for (;;) {
          const p = cache.page(listPrefix, start, limit, filter);
          fromCache.push(p.items.map((o) => o.metadata.name ?? ''));
          if (!p.more || p.lastKey === undefined) break;
          start = `${p.lastKey}\u0000`;
        }
        let token: string | undefined;
        for (;;) {
          const r = await storage.list({
            prefix: listPrefix,
            limit,
            ...(token !== undefined ? { continueToken: token } : {}),
            ...(filter !== undefined ? { predicate: filter } : {}),
          });
          fromStorage.push(r.items.map((o) => o.metadata.name ?? ''));
          if (filter === undefined && r.remainingItemCount !== undefined) {
            const from = token === undefined ? listPrefix : listPrefix + decodeContinue(token).start;
            const p = cache.page(listPrefix, from, limit);
            assert.equal(p.count - p.items.length, r.remainingItemCount);
          }
          if (r.continueToken === undefined) break;
          token = r.continueToken;
        }
        assert.deepEqual(fromCache, fromStorage, `${listPrefix} limit ${limit} ${filter ? 'odd' : 'all'}`);
      }
    }
  }
  // No limit: everything from the start key on.
  assert.equal(cache.page(prefix, `${prefix}b/`, 0).items.length, 22 - 8);
});

test('watch cache: a fill larger than one storage page reads every page at one revision, yielding between them', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  const n = 12_001;
  for (let i = 0; i < n; i++) await storage.create(`${prefix}ns/cm-${i}`, cm('ns', `cm-${i}`, '0'));
  const filledAt = await storage.currentRevision();
  // Writes racing the fill: the fill reads one revision, the watch from it brings the rest.
  const cache = new WatchCache({ storage, prefix, capacity: 10 });
  cache.start();
  let turns = 0;
  while (!cache.ready) {
    await new Promise((r) => setImmediate(r));
    turns++;
    if (turns === 1) await storage.create(`${prefix}ns/late`, cm('ns', 'late', '0'));
  }
  assert.ok(turns >= 3, `the fill held the event loop: ready after ${turns} turns`);
  await settle(cache, storage);
  assert.ok(cache.revision > filledAt);
  const names = new Set(cache.list(prefix).items.map((o) => o.metadata.name));
  assert.equal(names.size, n + 1);
  assert.ok(names.has('cm-0') && names.has(`cm-${n - 1}`) && names.has('late'));
  cache.stop();
  await kv.close();
});

test('#28 watch cache: kept list encodings live as long as their object is the current state', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  await storage.create(`${prefix}a/x`, cm('a', 'x', '0'));
  await storage.create(`${prefix}a/y`, cm('a', 'y', '0'));
  const cache = new WatchCache({ storage, prefix, capacity: 10 });
  await ready(cache);
  const [x, y] = cache.list(prefix).items;
  assert.ok(x !== undefined && y !== undefined);
  cache.encodings.remember(x, 'x0');
  cache.encodings.remember(y, 'y0');
  assert.equal(cache.encodings.get(x), 'x0');
  // An update replaces x: its encoding goes with it, and the new object has none.
  await storage.guaranteedUpdate(`${prefix}a/x`, () => cm('a', 'x', '1'));
  await settle(cache, storage);
  assert.equal(cache.encodings.get(x), undefined);
  const x1 = cache.get(`${prefix}a/x`);
  assert.ok(x1 !== undefined && x1 !== x);
  assert.equal(cache.encodings.get(x1), undefined);
  // A list that read x before the update cannot keep an encoding of it now.
  cache.encodings.remember(x, 'stale');
  assert.equal(cache.encodings.get(x), undefined);
  assert.equal(cache.encodings.size, 1);
  // A delete forgets too; stopping forgets everything.
  await storage.delete(`${prefix}a/y`);
  await settle(cache, storage);
  assert.equal(cache.encodings.get(y), undefined);
  assert.equal(cache.encodings.bytes, 0);
  cache.encodings.remember(x1, 'x1');
  assert.equal(cache.encodings.size, 1);
  cache.stop();
  assert.equal(cache.encodings.size, 0);
});

test('#28 watch cache: objects with equal managedFields sets share one copy, from the fill and from events', async () => {
  const kv = createMemoryKv();
  const storage = new KvObjectStore(kv);
  const withFields = (ns: string, name: string): KubeObject => ({
    ...cm(ns, name, name),
    metadata: {
      name,
      namespace: ns,
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-12-04T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:v': {} } },
        },
      ],
    },
  });
  await storage.create(`${prefix}a/before`, withFields('a', 'before'));
  const cache = new WatchCache({ storage, prefix });
  await ready(cache);
  await storage.create(`${prefix}a/after`, withFields('a', 'after'));
  await settle(cache, storage);
  const fieldsOf = (key: string) =>
    (cache.get(key)?.metadata.managedFields as { fieldsV1: unknown }[] | undefined)?.[0]?.fieldsV1;
  assert.ok(fieldsOf(`${prefix}a/before`) !== undefined);
  assert.equal(fieldsOf(`${prefix}a/before`), fieldsOf(`${prefix}a/after`));
  // What a list answers is what storage holds.
  assert.deepEqual(cache.list(prefix).items, (await storage.list({ prefix })).items);
  cache.stop();
});
