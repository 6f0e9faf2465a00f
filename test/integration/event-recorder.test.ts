/**
 * Integration: the events.k8s.io/v1 recorder against an in-process server — the first
 * occurrence creates an Event, the second turns it into a series at once, later ones are counted
 * and written when the series ends; the core/v1 view (what kubectl describe reads) shows the
 * series. At most client-go's 1,000 writes wait; newer events are dropped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EventRecorder } from '../../src/client/event-recorder.js';
import type { ObjectRef } from '../../src/client/event-recorder.js';
import { maxQueuedEvents } from '../../src/client/event-writes.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface EventList {
  items: JsonObject[];
}

describe('EventRecorder', () => {
  let s: TestServer;
  let client: RestClient;
  before(async () => {
    s = await startTestServer();
    client = adminClient(s);
  });
  after(async () => {
    client.close();
    await s.stop();
  });

  it('creates, then aggregates isomorphic events into a series', async () => {
    const cm = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ev-target' } },
    });
    const clock = new FakeClock(Date.parse('2026-11-30T10:00:00Z'));
    const errors: unknown[] = [];
    const rec = new EventRecorder({
      client,
      reportingController: 'test-controller',
      reportingInstance: 'test-controller-host1',
      clock,
      onError: (e) => errors.push(e),
    });
    const abort = new AbortController();
    const running = rec.run(abort.signal);
    rec.event(cm, 'Normal', 'Synced', 'Sync', 'synced once');
    await rec.flush();
    const list = async (): Promise<JsonObject[]> =>
      (
        (await client.request(
          'GET',
          '/apis/events.k8s.io/v1/namespaces/default/events',
        )) as unknown as EventList
      ).items.filter((e) => (e['reportingController'] as string) === 'test-controller');
    let events = await list();
    assert.equal(events.length, 1);
    const first = events[0]!;
    assert.match((first['metadata'] as { name: string }).name, /^ev-target\.[0-9a-f]+$/);
    assert.equal(first['eventTime'], '2026-11-30T10:00:00.000000Z');
    assert.deepEqual(
      { ...(first['regarding'] as JsonObject), resourceVersion: undefined, uid: undefined },
      {
        kind: 'ConfigMap',
        namespace: 'default',
        name: 'ev-target',
        apiVersion: 'v1',
        resourceVersion: undefined,
        uid: undefined,
      },
    );
    assert.equal(first['series'], undefined);
    // A different reason is another event.
    rec.event(cm, 'Warning', 'Failed', 'Sync', 'failed once');
    clock.advance(1000);
    rec.event(cm, 'Normal', 'Synced', 'Sync', 'synced again');
    await rec.flush();
    events = await list();
    assert.equal(events.length, 2);
    const synced = events.find((e) => e['reason'] === 'Synced')!;
    assert.deepEqual(synced['series'], { count: 2, lastObservedTime: '2026-11-30T10:00:01.000000Z' });
    // Third and fourth: counted, not written until the series ends.
    clock.advance(1000);
    rec.event(cm, 'Normal', 'Synced', 'Sync', 'synced');
    rec.event(cm, 'Normal', 'Synced', 'Sync', 'synced');
    await rec.flush();
    assert.equal(
      ((await list()).find((e) => e['reason'] === 'Synced')!['series'] as { count: number }).count,
      2,
    );
    clock.advance(6 * 60_000);
    // The finish pass runs on the clock's tick: wait for its write.
    for (let i = 0; i < 200; i++) {
      await rec.flush();
      const s2 = (await list()).find((e) => e['reason'] === 'Synced')!['series'] as { count: number };
      if (s2.count === 4) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const final = (await list()).find((e) => e['reason'] === 'Synced')!;
    assert.deepEqual(final['series'], { count: 4, lastObservedTime: '2026-11-30T10:00:02.000000Z' });
    // The core/v1 view kubectl describe reads carries the series and the source.
    const core = (await client.request('GET', '/api/v1/namespaces/default/events')) as unknown as EventList;
    const coreSynced = core.items.find((e) => e['reason'] === 'Synced')!;
    assert.deepEqual(coreSynced['series'], { count: 4, lastObservedTime: '2026-11-30T10:00:02.000000Z' });
    assert.equal(coreSynced['reportingComponent'], 'test-controller');
    assert.equal((coreSynced['involvedObject'] as JsonObject)['name'], 'ev-target');
    abort.abort();
    await running;
    assert.deepEqual(errors, []);
  });
  it('holds at most 1,000 writes waiting: a newer event, or a repeat, is dropped and starts no series', async () => {
    const errors: unknown[] = [];
    const rec = new EventRecorder({
      client,
      reportingController: 'queue-test-scheduler',
      reportingInstance: 'queue-test-scheduler-1',
      onError: (e) => errors.push(e),
    });
    const cm = (i: number): ObjectRef => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: `q-${i}`,
    });
    for (let i = 0; i < maxQueuedEvents; i++) rec.event(cm(i), 'Normal', 'Scheduled', 'Binding', 'assigned');
    rec.event(cm(5000), 'Normal', 'Scheduled', 'Binding', 'assigned');
    rec.event(cm(0), 'Normal', 'Scheduled', 'Binding', 'assigned');
    assert.equal(errors.length, 2);
    await rec.flush();
    const list = (await client.request(
      'GET',
      '/apis/events.k8s.io/v1/namespaces/default/events',
    )) as unknown as EventList;
    const mine = list.items.filter((e) => e['reportingController'] === 'queue-test-scheduler');
    assert.equal(mine.length, maxQueuedEvents);
    assert.ok(mine.every((e) => e['series'] === undefined));
  });
});
