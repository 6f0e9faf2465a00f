import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KvCompactedError } from './errors.js';
import { spanHas } from './key-range.js';
import { EventReader } from './testing/helpers.js';
import type { KvEvent } from './types.js';
import type { WatchHistorySource } from './watch-hub.js';
import { WatchHub } from './watch-hub.js';

function put(rev: number, key = '/k'): KvEvent {
  return {
    type: 'put',
    kv: { key, value: new Uint8Array(0), createRevision: rev, modRevision: rev, lease: 0 },
  };
}

/** A backend stand-in: an event log plus commit-then-publish. */
class FakeBackend {
  readonly log: KvEvent[] = [];
  compacted = 0;
  readonly #hub: WatchHub;

  constructor(hub: WatchHub) {
    this.#hub = hub;
  }

  /** Commits the events of one or more whole revisions (like a backend's batch). */
  commit(...events: KvEvent[]): void {
    this.log.push(...events);
    this.#hub.publish(events);
  }

  readonly source: WatchHistorySource = {
    readHistory: (from, span, limit) => {
      if (from <= this.compacted) throw new KvCompactedError(from, this.compacted);
      const matching = this.log.filter((e) => e.kv.modRevision >= from && spanHas(span, e.kv.key));
      const page = matching.slice(0, limit);
      const lastRev = page.length === limit ? page[page.length - 1]?.kv.modRevision : undefined;
      for (const ev of matching.slice(limit)) {
        if (ev.kv.modRevision !== lastRev) break;
        page.push(ev);
      }
      return page;
    },
  };
}

const revs = (events: KvEvent[]): number[] => events.map((e) => e.kv.modRevision);
const names = (events: KvEvent[]): string[] => events.map((e) => `${e.kv.key}@${e.kv.modRevision}`);

/** The events of one revision that wrote several keys (a transaction). */
function txn(rev: number, ...keys: string[]): KvEvent[] {
  return keys.map((key) => put(rev, key));
}

describe('WatchHub', () => {
  it('replays in pages while live events arrive, without gaps or duplicates', async () => {
    const hub = new WatchHub({ replayPageSize: 2 });
    const b = new FakeBackend(hub);
    for (let rev = 1; rev <= 5; rev++) b.commit(put(rev));
    const reader = new EventReader(hub.watch({ key: '/k', startRevision: 2 }, 5, b.source));
    b.commit(put(6)); // committed after registration: both in the log and in the live buffer
    const first = await reader.take(1);
    b.commit(put(7));
    b.commit(put(8, '/other'));
    const rest = await reader.take(5);
    b.commit(put(9));
    const live = await reader.take(1);
    assert.deepEqual(revs([...first, ...rest, ...live]), [2, 3, 4, 5, 6, 7, 9]);
    assert.equal(await reader.next(20), 'timeout');
    assert.equal(hub.size, 1);
    hub.closeAll();
    assert.equal(await reader.next(), 'done');
    assert.equal(hub.size, 0);
  });

  it('delivers every event of a revision that wrote several keys', async () => {
    const hub = new WatchHub();
    const b = new FakeBackend(hub);
    const reader = new EventReader(hub.watch({ key: '/', end: '0' }, 0, b.source));
    b.commit(...txn(1, '/b', '/a', '/c'), put(2, '/d'));
    b.commit(...txn(3, '/e', '/f'));
    assert.deepEqual(names(await reader.take(6)), ['/b@1', '/a@1', '/c@1', '/d@2', '/e@3', '/f@3']);
    assert.equal(await reader.next(20), 'timeout');
  });

  it('replays whole revisions across pages smaller than a revision, then switches to live', async () => {
    const hub = new WatchHub({ replayPageSize: 2 });
    const b = new FakeBackend(hub);
    b.commit(...txn(1, '/a', '/b', '/c'));
    b.commit(put(2, '/d'));
    b.commit(...txn(3, '/e', '/x', '/f'));
    const reader = new EventReader(hub.watch({ key: '/', end: '0', startRevision: 1 }, 3, b.source));
    const first = await reader.take(1); // reads revision 1 whole (3 events for a page of 2)
    b.commit(...txn(4, '/g', '/h')); // buffered live and in history
    const second = await reader.take(4);
    b.commit(...txn(5, '/i', '/j', '/k')); // buffered live and in history
    const rest = await reader.take(7);
    b.commit(...txn(6, '/l', '/m'));
    const live = await reader.take(2);
    assert.deepEqual(names([...first, ...second, ...rest, ...live]), [
      '/a@1',
      '/b@1',
      '/c@1',
      '/d@2',
      '/e@3',
      '/x@3',
      '/f@3',
      '/g@4',
      '/h@4',
      '/i@5',
      '/j@5',
      '/k@5',
      '/l@6',
      '/m@6',
    ]);
    assert.equal(await reader.next(20), 'timeout');
  });

  it('a watch from a revision gets all its events; one from a future revision skips earlier ones', async () => {
    const hub = new WatchHub({ replayPageSize: 1 });
    const b = new FakeBackend(hub);
    b.commit(...txn(1, '/a', '/b'));
    b.commit(...txn(2, '/c', '/d'));
    const from2 = new EventReader(hub.watch({ key: '/', end: '0', startRevision: 2 }, 2, b.source));
    const from4 = new EventReader(hub.watch({ key: '/', end: '0', startRevision: 4 }, 2, b.source));
    b.commit(...txn(3, '/e', '/f'), ...txn(4, '/g', '/h'));
    assert.deepEqual(names(await from2.take(6)), ['/c@2', '/d@2', '/e@3', '/f@3', '/g@4', '/h@4']);
    assert.deepEqual(names(await from4.take(2)), ['/g@4', '/h@4']);
    assert.equal(await from4.next(20), 'timeout');
  });

  it('surfaces compaction that overtakes a replay as an error', async () => {
    const hub = new WatchHub({ replayPageSize: 1 });
    const b = new FakeBackend(hub);
    for (let rev = 1; rev <= 3; rev++) b.commit(put(rev));
    const it = hub.watch({ key: '/k', startRevision: 1 }, 3, b.source)[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(first.done, false);
    assert.equal(first.value.kv.modRevision, 1);
    b.compacted = 2;
    await assert.rejects(it.next(), KvCompactedError);
    assert.equal(hub.size, 0);
  });

  it('strips prevKv unless asked and unregisters on return()', async () => {
    const hub = new WatchHub();
    const b = new FakeBackend(hub);
    const it = hub.watch({ key: '/k' }, 0, b.source)[Symbol.asyncIterator]();
    b.commit({ ...put(1), prevKv: put(0).kv });
    const first = await it.next();
    assert.equal((first.value as KvEvent).prevKv, undefined);
    await it.return?.();
    assert.equal(hub.size, 0);
  });
});
