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

  commit(ev: KvEvent): void {
    this.log.push(ev);
    this.#hub.publish([ev]);
  }

  readonly source: WatchHistorySource = {
    readHistory: (from, span, limit) => {
      if (from <= this.compacted) throw new KvCompactedError(from, this.compacted);
      return this.log.filter((e) => e.kv.modRevision >= from && spanHas(span, e.kv.key)).slice(0, limit);
    },
  };
}

const revs = (events: KvEvent[]): number[] => events.map((e) => e.kv.modRevision);

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
