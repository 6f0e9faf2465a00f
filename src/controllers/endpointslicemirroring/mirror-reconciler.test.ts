import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { planMirror } from './mirror-reconciler.js';

const endpoints = (subsets: JsonObject[], extra: JsonObject = {}): JsonObject => ({
  metadata: {
    name: 'ext',
    namespace: 'ns',
    uid: 'ep-uid',
    labels: { team: 'a' },
    annotations: { note: 'x', 'endpoints.kubernetes.io/last-change-trigger-time': '2026-01-01T00:00:00Z' },
    ...extra,
  },
  subsets,
});
const port = { name: 'http', port: 80, protocol: 'TCP' };
const ips = (n: number): JsonObject[] =>
  Array.from({ length: n }, (_, i) => ({ ip: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}` }));
const metaOf = (s: JsonObject | undefined): JsonObject => (s?.['metadata'] ?? {}) as JsonObject;

describe('planMirror (endpointslicemirroring reconciler.go)', () => {
  it('mirrors ready and not-ready addresses by address type, with labels, annotations and owner', () => {
    const plan = planMirror(
      endpoints([
        {
          addresses: [{ ip: '10.0.0.1', nodeName: 'n1' }, { ip: 'fd00:0::1' }],
          notReadyAddresses: [{ ip: '10.0.0.2', hostname: 'h' }, { ip: 'not-an-ip' }],
          ports: [port],
        },
      ]),
      [],
    );
    assert.deepEqual(
      plan.create.map((s) => [s['addressType'], s['endpoints']]),
      [
        [
          'IPv4',
          [
            { addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n1' },
            { addresses: ['10.0.0.2'], conditions: { ready: false }, hostname: 'h' },
          ],
        ],
        ['IPv6', [{ addresses: ['fd00::1'], conditions: { ready: true } }]],
      ],
    );
    const m = metaOf(plan.create[0]);
    assert.deepEqual(m['labels'], {
      team: 'a',
      'kubernetes.io/service-name': 'ext',
      'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
    });
    assert.deepEqual(m['annotations'], { note: 'x' });
    assert.equal(m['generateName'], 'ext-');
    assert.deepEqual(m['ownerReferences'], [
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        name: 'ext',
        uid: 'ep-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(plan.create[0]?.['ports'], [port]);
    assert.deepEqual([plan.invalidAddresses, plan.addressesSkipped], [1, 1]);
  });

  it('mirrors at most 1000 addresses per subset, ready ones first', () => {
    const plan = planMirror(
      endpoints([{ addresses: ips(1200), notReadyAddresses: [{ ip: '10.9.9.9' }], ports: [port] }]),
      [],
    );
    assert.equal((plan.create[0]?.['endpoints'] as JsonObject[]).length, 1000);
    assert.deepEqual([plan.invalidAddresses, plan.addressesSkipped], [0, 201]);
  });

  it('leaves a matching slice alone, updates a changed one, deletes extra and stale ones', () => {
    const ep = endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [port] }]);
    const first = planMirror(ep, []).create[0]!;
    const existing = { ...first, metadata: { ...metaOf(first), name: 'ext-1', resourceVersion: '3' } };
    const same = planMirror(ep, [existing]);
    assert.deepEqual([same.create.length, same.update.length, same.delete.length], [0, 0, 0]);
    const moved = planMirror(endpoints([{ addresses: [{ ip: '10.0.0.2' }], ports: [port] }]), [existing]);
    assert.deepEqual([moved.create.length, moved.update.length, moved.delete.length], [0, 1, 0]);
    assert.equal(metaOf(moved.update[0])['name'], 'ext-1');
    const relabelled = planMirror(
      endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [port] }], { labels: { team: 'b' } }),
      [existing],
    );
    assert.equal(relabelled.update.length, 1);
    const gone = planMirror(endpoints([]), [existing]);
    assert.deepEqual(
      gone.delete.map((s) => metaOf(s)['name']),
      ['ext-1'],
    );
  });

  it('NW-13: canonicalizes custom Endpoints first (one address in two subsets is one endpoint with both ports)', () => {
    const plan = planMirror(
      endpoints([
        { addresses: [{ ip: '10.40.0.2' }], ports: [{ name: 'a', port: 8080, protocol: 'TCP' }] },
        { addresses: [{ ip: '10.40.0.2' }], ports: [{ name: 'b', port: 8082, protocol: 'TCP' }] },
      ]),
      [],
    );
    assert.equal(plan.create.length, 1);
    assert.deepEqual(plan.create[0]?.['ports'], [
      { name: 'a', port: 8080, protocol: 'TCP' },
      { name: 'b', port: 8082, protocol: 'TCP' },
    ]);
    assert.deepEqual(plan.create[0]?.['endpoints'], [
      { addresses: ['10.40.0.2'], conditions: { ready: true } },
    ]);
  });
});
