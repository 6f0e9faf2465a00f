/**
 * Issue #6: the pod subresources beyond binding and eviction, as kube-apiserver v1.27 answers them
 * without a kubelet: pods/ephemeralcontainers (upstream's EphemeralContainersStrategy), pods/log,
 * exec, attach, portforward and the proxy subresources of pods, nodes and services, and
 * serviceaccounts/token.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
});
after(() => s.stop());

const pods = '/api/v1/namespaces/default/pods';
type Json = Record<string, unknown>;
const pod = (name: string, containers: Json[], extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers, ...extra },
});
const smp = 'application/strategic-merge-patch+json';

function causes(r: { json(): Json }): string[] {
  const details = r.json()['details'] as { causes?: { field?: string; message?: string }[] };
  return (details.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

test('pods/ephemeralcontainers: discovery, add, refuse changes and forbidden fields', async () => {
  const disc = (await s.request('GET', '/api/v1')).json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    disc.find((r) => r['name'] === 'pods/ephemeralcontainers'),
    {
      name: 'pods/ephemeralcontainers',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    },
  );
  const created = await s.request('POST', pods, {
    body: pod('eph', [{ name: 'app', image: 'nginx' }], { nodeName: 'n1' }),
  });
  assert.equal(created.status, 201, created.text);
  const got = await s.request('GET', `${pods}/eph/ephemeralcontainers`);
  assert.equal(got.status, 200);
  assert.equal(got.json()['kind'], 'Pod');

  // Only spec.ephemeralContainers is taken: labels and other spec changes are dropped.
  const add = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: smp,
    body: {
      metadata: { labels: { x: 'y' } },
      spec: {
        activeDeadlineSeconds: 5,
        ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app', stdin: true }],
      },
    },
  });
  assert.equal(add.status, 200, add.text);
  const after = add.json();
  assert.equal((after['metadata'] as Json)['labels'], undefined);
  const spec = after['spec'] as Json;
  assert.equal(spec['activeDeadlineSeconds'], undefined);
  const eph = (spec['ephemeralContainers'] as Json[])[0]!;
  assert.equal(eph['name'], 'debug');
  assert.equal(eph['terminationMessagePath'], '/dev/termination-log');
  assert.equal(eph['imagePullPolicy'], 'Always');

  // A regular pod update may not touch them.
  const viaPod = await s.request('PATCH', `${pods}/eph`, {
    contentType: smp,
    body: { spec: { ephemeralContainers: [{ name: 'other', image: 'busybox' }] } },
  });
  assert.equal(viaPod.status, 422);

  const changed = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: 'application/json-patch+json',
    raw: JSON.stringify([{ op: 'replace', path: '/spec/ephemeralContainers/0/image', value: 'alpine' }]),
  });
  assert.equal(changed.status, 422, changed.text);
  const msg = String(changed.json()['message']);
  assert.ok(
    msg.startsWith(
      'Pod "eph" is invalid: spec.ephemeralContainers.debug: Forbidden: existing ephemeral containers "debug" may not be changed\n',
    ),
    msg,
  );

  const removed = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: 'application/merge-patch+json',
    body: { spec: { ephemeralContainers: null } },
  });
  assert.equal(removed.status, 422, removed.text);
  assert.deepEqual(causes(removed), [
    'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n',
  ]);

  const bad = await s.request('PATCH', `${pods}/eph/ephemeralcontainers`, {
    contentType: smp,
    body: {
      spec: {
        ephemeralContainers: [
          {
            name: 'app',
            image: 'busybox',
            targetContainerName: 'nope',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '1' } },
            readinessProbe: { exec: { command: ['true'] } },
            lifecycle: { preStop: { exec: { command: ['true'] } } },
          },
        ],
      },
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(causes(bad), [
    'spec.ephemeralContainers[0].name: Duplicate value: "app"',
    'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
    'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
  ]);

  const post = await s.request('POST', `${pods}/eph/ephemeralcontainers`, { body: {} });
  assert.equal(post.status, 405);
});
