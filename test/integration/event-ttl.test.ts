/**
 * `--event-ttl` (kube-apiserver's flag, default 1h): Events are written with a storage lease of
 * that many seconds and disappear once it expires; other kinds are kept.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, eventTtlSeconds: 1 });
});
after(() => s.stop());

test('an Event expires after --event-ttl; a ConfigMap written with it stays', async () => {
  const event = await s.request('POST', '/api/v1/namespaces/default/events', {
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'short-lived' },
      involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'kept' },
      reason: 'Test',
      message: 'expires in a second',
      type: 'Normal',
    },
  });
  assert.equal(event.status, 201, event.text);
  const cm = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } },
  });
  assert.equal(cm.status, 201, cm.text);
  await waitFor(
    'the Event to expire',
    async () => (await s.request('GET', '/api/v1/namespaces/default/events/short-lived')).status === 404,
  );
  assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/kept')).status, 200);
});
