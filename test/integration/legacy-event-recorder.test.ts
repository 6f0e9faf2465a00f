/**
 * Integration: the core/v1 event recorder (client-go tools/record) against an in-process
 * server — the first occurrence creates an Event with source and count 1; an identical one patches
 * count and lastTimestamp; at most client-go's 1,000 writes wait, newer events are dropped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LegacyEventRecorder } from '../../src/client/legacy-event-recorder.js';
import type { ObjectRef } from '../../src/client/event-recorder.js';
import { maxQueuedEvents } from '../../src/client/event-writes.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

describe('LegacyEventRecorder', () => {
  let s: TestServer;
  let client: RestClient;
  before(async () => {
    s = await startTestServer({ controllers: false });
    client = adminClient(s);
  });
  after(async () => {
    client.close();
    await s.stop();
  });

  it('creates, then counts identical events', async () => {
    const cm = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'legacy-target' } },
    });
    const clock = new FakeClock(Date.parse('2026-11-30T10:00:00Z'));
    const errors: unknown[] = [];
    const rec = new LegacyEventRecorder({
      client,
      component: 'deployment-controller',
      clock,
      onError: (e) => errors.push(e),
    });
    rec.event(cm, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-1 to 1');
    clock.advance(5000);
    rec.event(cm, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-1 to 1');
    rec.event(cm, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-1 to 2');
    await rec.flush();
    const list = (await client.request('GET', '/api/v1/namespaces/default/events')) as unknown as {
      items: JsonObject[];
    };
    const mine = list.items.filter(
      (e) => (e['source'] as { component?: string } | undefined)?.component === 'deployment-controller',
    );
    assert.equal(mine.length, 2);
    const first = mine.find((e) => e['message'] === 'Scaled up replica set web-1 to 1')!;
    assert.equal(first['count'], 2);
    assert.equal(first['firstTimestamp'], '2026-11-30T10:00:00Z');
    assert.equal(first['lastTimestamp'], '2026-11-30T10:00:05Z');
    assert.equal(first['type'], 'Normal');
    assert.equal(first['reportingComponent'], 'deployment-controller');
    assert.match((first['metadata'] as { name: string }).name, /^legacy-target\.[0-9a-f]+$/);
    assert.equal((first['involvedObject'] as JsonObject)['kind'], 'ConfigMap');
    assert.deepEqual(errors, []);
  });

  it("counts an event about an object whose resourceVersion changed in between (upstream's key has no resourceVersion)", async () => {
    const cm = await client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'legacy-rv' } },
    });
    const changed = await client.request('PUT', '/api/v1/namespaces/default/configmaps/legacy-rv', {
      body: { ...cm, data: { a: 'b' } },
    });
    const rv = (o: JsonObject): unknown => (o['metadata'] as JsonObject)['resourceVersion'];
    assert.notEqual(rv(changed), rv(cm));
    const clock = new FakeClock(Date.parse('2026-11-30T11:00:00Z'));
    const errors: unknown[] = [];
    const rec = new LegacyEventRecorder({
      client,
      component: 'kubelet',
      host: 'node-a',
      clock,
      onError: (e) => errors.push(e),
    });
    const ref = (o: JsonObject): JsonObject => ({ ...o, kind: 'ConfigMap', apiVersion: 'v1' });
    rec.event(ref(cm), 'Warning', 'BackOff', 'Back-off restarting failed container');
    clock.advance(10_000);
    rec.event(ref(changed), 'Warning', 'BackOff', 'Back-off restarting failed container');
    clock.advance(10_000);
    // Another object of the same name (a new uid) is another event.
    rec.event(
      { ...ref(changed), metadata: { ...(changed['metadata'] as JsonObject), uid: 'other-uid' } },
      'Warning',
      'BackOff',
      'Back-off restarting failed container',
    );
    await rec.flush();
    const list = (await client.request('GET', '/api/v1/namespaces/default/events')) as unknown as {
      items: JsonObject[];
    };
    const mine = list.items.filter((e) => e['reason'] === 'BackOff');
    assert.equal(mine.length, 2);
    const counted = mine.find((e) => (e['involvedObject'] as JsonObject)['uid'] !== 'other-uid')!;
    assert.equal(counted['count'], 2);
    assert.equal(counted['firstTimestamp'], '2026-11-30T11:00:00Z');
    assert.equal(counted['lastTimestamp'], '2026-11-30T11:00:10Z');
    assert.equal((counted['involvedObject'] as JsonObject)['resourceVersion'], rv(cm));
    assert.deepEqual(errors, []);
  });
  it('drops what is recorded while 1,000 writes wait, as client-go does, and counts none of it', async () => {
    const errors: unknown[] = [];
    const rec = new LegacyEventRecorder({ client, component: 'queue-test', onError: (e) => errors.push(e) });
    const pod = (i: number): ObjectRef => ({
      kind: 'Pod',
      namespace: 'default',
      name: `queued-${i}`,
      uid: `uid-${i}`,
    });
    // Recorded at once: none is written before the loop ends.
    for (let i = 0; i < maxQueuedEvents + 5; i++)
      rec.event(pod(i), 'Normal', 'Started', 'Started container c');
    assert.equal(errors.length, 5);
    for (const e of errors) {
      assert.ok(e instanceof Error);
      assert.match(
        e.message,
        /^unable to record event: too many queued events, dropped event "Started" about Pod\/default\/queued-100[0-4]$/,
      );
    }
    await rec.flush();
    const list = (await client.request('GET', '/api/v1/namespaces/default/events')) as unknown as {
      items: JsonObject[];
    };
    const mine = list.items.filter(
      (e) => (e['source'] as { component?: string })['component'] === 'queue-test',
    );
    assert.equal(mine.length, maxQueuedEvents);
    assert.ok(!mine.some((e) => /^queued-100[0-4]$/.test((e['involvedObject'] as { name: string }).name)));
    // Written, the queue takes events again.
    rec.event(pod(2000), 'Normal', 'Started', 'Started container c');
    await rec.flush();
    assert.equal(errors.length, 5);
  });
});
