import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ObjectWatchEvent } from '../../storage/interfaces.js';
import { WatchFeed } from './watch.js';
import type { WatchEvent } from './watch.js';

const everything = { everything: true, matches: () => true };

function added(i: number): ObjectWatchEvent {
  return {
    type: 'ADDED',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, resourceVersion: String(100 + i) } },
  };
}

/** A storage watch whose events are all there at once. */
async function* burst(n: number): AsyncGenerator<ObjectWatchEvent> {
  for (let i = 0; i < n; i++) yield await Promise.resolve(added(i));
}

/** What the watch handler does: take everything that is ready each time it is told. */
function drain(feed: WatchFeed): WatchEvent[] {
  const out: WatchEvent[] = [];
  for (let ev = feed.take(); ev !== undefined; ev = feed.take()) out.push(ev);
  return out;
}

test('a watch served from storage reads ahead: a burst is taken in one go, not one event per notification', async () => {
  const ac = new AbortController();
  const feed = new WatchFeed(
    { initial: [], after: 99, endBookmark: false },
    everything,
    () => burst(50),
    ac.signal,
  );
  let notified = 0;
  feed.listen(() => notified++);
  assert.deepEqual(drain(feed), [], 'nothing is ready before storage answers');
  // Let the storage iterator's promises settle (no timers involved).
  for (let i = 0; i < 200; i++) await Promise.resolve();
  const got = drain(feed);
  assert.equal(got.length, 50, 'every event storage had is ready at the next take');
  assert.deepEqual(
    got.map((e) => (e.object['metadata'] as { name: string }).name),
    Array.from({ length: 50 }, (_, i) => `p-${i}`),
    'in order',
  );
  assert.ok(notified > 0);
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.equal(feed.take(), undefined);
  assert.equal(feed.done, true, 'the storage watch ended, so does the feed');
  ac.abort();
});

test('read-ahead is bounded: storage is not pulled past 1024 events the consumer has not taken', async () => {
  const ac = new AbortController();
  let pulled = 0;
  async function* counting(): AsyncGenerator<ObjectWatchEvent> {
    for (let i = 0; ; i++) {
      pulled++;
      yield await Promise.resolve(added(i));
    }
  }
  const feed = new WatchFeed({ initial: [], after: 99, endBookmark: false }, everything, counting, ac.signal);
  feed.listen(() => undefined);
  assert.equal(feed.take(), undefined);
  for (let i = 0; i < 20_000; i++) await Promise.resolve();
  assert.ok(pulled <= 1026, `pulled ${pulled}`);
  assert.equal(drain(feed).length >= 1024, true);
  feed.close();
  ac.abort();
});
