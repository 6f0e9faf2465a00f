/**
 * Integration: the core/v1 event recorder (client-go tools/record) against an in-process
 * server — the first occurrence creates an Event with source and count 1; an identical one patches
 * count and lastTimestamp.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LegacyEventRecorder } from '../../src/client/legacy-event-recorder.js';
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
});
