import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { compareKeys, planSlices } from './reconciler.js';
import { zoneRatios } from './topology-cache.js';

const service = (extra: JsonObject = {}, ann: Record<string, string> = {}): JsonObject => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid', labels: { team: 'a' }, annotations: ann },
  spec: {
    clusterIP: '10.0.0.10',
    ipFamilies: ['IPv4'],
    selector: { app: 'web' },
    ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
    ...extra,
  },
});

function pod(
  i: number,
  o: { ready?: boolean; deleting?: boolean; node?: string; ip?: string; ips?: string[] } = {},
): JsonObject {
  const ips = o.ips ?? [o.ip ?? `10.1.${Math.floor(i / 200)}.${(i % 200) + 2}`];
  return {
    metadata: {
      name: `p${i}`,
      namespace: 'ns',
      uid: `uid-${i}`,
      labels: { app: 'web' },
      ...(o.deleting === true ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { nodeName: o.node ?? 'n1', containers: [{ name: 'c' }] },
    status: {
      phase: 'Running',
      podIP: ips[0] ?? '',
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

const node = (n: string, zone: string, cpu = '4'): JsonObject => ({
  metadata: { name: n, labels: { 'topology.kubernetes.io/zone': zone } },
  status: { allocatable: { cpu }, conditions: [{ type: 'Ready', status: 'True' }] },
});
const nodes = new Map([
  ['n1', node('n1', 'zone-a')],
  ['n2', node('n2', 'zone-b')],
]);
const nodeByName = (n: string): JsonObject | undefined => nodes.get(n);
const eps = (s: JsonObject | undefined): JsonObject[] => (s?.['endpoints'] ?? []) as JsonObject[];
const metaOf = (s: JsonObject | undefined): JsonObject => (s?.['metadata'] ?? {}) as JsonObject;

describe('planSlices (endpointslice reconciler.go)', () => {
  it('splits 250 endpoints into slices of at most 100 with labels and the owner reference', () => {
    const pods = Array.from({ length: 250 }, (_, i) => pod(i));
    const plan = planSlices({ service: service(), pods, existing: [], nodeByName });
    assert.deepEqual(
      plan.create.map((s) => eps(s).length),
      [100, 100, 50],
    );
    const s = plan.create[0];
    assert.equal(s?.['addressType'], 'IPv4');
    assert.deepEqual(metaOf(s)['labels'], {
      team: 'a',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    assert.equal(metaOf(s)['generateName'], 'web-');
    assert.deepEqual(metaOf(s)['ownerReferences'], [
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: 'svc-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(s?.['ports'], [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(eps(s)[0], {
      addresses: ['10.1.0.2'],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: 'Pod', namespace: 'ns', name: 'p0', uid: 'uid-0' },
      nodeName: 'n1',
      zone: 'zone-a',
    });
  });

  it('NW-15: includes terminating pods with serving and terminating set, ready false', () => {
    const plan = planSlices({
      service: service(),
      pods: [pod(1, { deleting: true }), pod(2, { deleting: true, ready: false })],
      existing: [],
      nodeByName,
    });
    assert.deepEqual(
      eps(plan.create[0]).map((e) => e['conditions']),
      [
        { ready: false, serving: true, terminating: true },
        { ready: false, serving: false, terminating: true },
      ],
    );
  });

  it('updates an existing slice in place when a pod becomes ready and keeps an unchanged one', () => {
    const first = planSlices({
      service: service(),
      pods: [pod(1, { ready: false })],
      existing: [],
      nodeByName,
    });
    const existing = {
      ...first.create[0]!,
      metadata: { ...metaOf(first.create[0]), name: 'web-abc', resourceVersion: '5' },
    };
    const again = planSlices({
      service: service(),
      pods: [pod(1, { ready: false })],
      existing: [existing],
      nodeByName,
    });
    assert.deepEqual([again.create.length, again.update.length, again.delete.length], [0, 0, 0]);
    const ready = planSlices({ service: service(), pods: [pod(1)], existing: [existing], nodeByName });
    assert.equal(ready.update.length, 1);
    assert.equal(metaOf(ready.update[0])['name'], 'web-abc');
    assert.deepEqual(eps(ready.update[0])[0]?.['conditions'], {
      ready: true,
      serving: true,
      terminating: false,
    });
  });

  it('keeps one placeholder slice for a Service without endpoints', () => {
    const plan = planSlices({ service: service(), pods: [], existing: [], nodeByName });
    assert.equal(plan.create.length, 1);
    assert.deepEqual([plan.create[0]?.['ports'], plan.create[0]?.['endpoints']], [[], []]);
    const placeholder = { ...plan.create[0]!, metadata: { ...metaOf(plan.create[0]), name: 'web-xyz' } };
    const again = planSlices({ service: service(), pods: [], existing: [placeholder], nodeByName });
    assert.deepEqual([again.create.length, again.update.length, again.delete.length], [0, 0, 0]);
    // Endpoints arriving reuse the placeholder's name (a create recycled into an update).
    const filled = planSlices({ service: service(), pods: [pod(1)], existing: [placeholder], nodeByName });
    assert.deepEqual([filled.create.length, filled.update.length, filled.delete.length], [0, 1, 0]);
    assert.equal(metaOf(filled.update[0])['name'], 'web-xyz');
  });

  it('NW-13: two pods sharing an IP are two endpoints', () => {
    const plan = planSlices({
      service: service(),
      pods: [pod(1, { ip: '192.168.0.5' }), pod(2, { ip: '192.168.0.5' })],
      existing: [],
      nodeByName,
    });
    assert.equal(eps(plan.create[0]).length, 2);
  });

  it('writes one slice family per ipFamily, and the headless label', () => {
    const plan = planSlices({
      service: service({ ipFamilies: ['IPv4', 'IPv6'], clusterIP: 'None' }),
      pods: [pod(1, { ips: ['10.1.0.2', 'fd00::2'] })],
      existing: [],
      nodeByName,
    });
    assert.deepEqual(
      plan.create.map((s) => [s['addressType'], eps(s)[0]?.['addresses']]),
      [
        ['IPv4', ['10.1.0.2']],
        ['IPv6', ['fd00::2']],
      ],
    );
    assert.equal((metaOf(plan.create[0])['labels'] as JsonObject)['service.kubernetes.io/headless'], '');
  });

  it('NW-04: topology-mode Auto gives zone hints by zone CPU, redistributing from a crowded zone', () => {
    const pods = [pod(1), pod(2), pod(3), pod(4, { node: 'n2' })];
    const ratios = zoneRatios([...nodes.values()]);
    const plan = planSlices({
      service: service({}, { 'service.kubernetes.io/topology-mode': 'Auto' }),
      pods,
      existing: [],
      nodeByName,
      zoneRatios: ratios,
    });
    const hints = eps(plan.create[0]).map((e) => JSON.stringify(e['hints']));
    assert.equal(hints.filter((h) => h.includes('zone-a')).length, 2);
    assert.equal(hints.filter((h) => h.includes('zone-b')).length, 2);
    const none = planSlices({ service: service(), pods, existing: [], nodeByName, zoneRatios: ratios });
    assert.ok(eps(none.create[0]).every((e) => e['hints'] === undefined));
    // One zone only: no hints.
    assert.equal(zoneRatios([node('n1', 'zone-a')]), undefined);
  });
});

describe('compareKeys: the order new endpoints fill slices in', () => {
  it('compares runs of digits as numbers and the rest by code unit', () => {
    const key = (ip: string, pod: string): string => JSON.stringify([[ip], '', 'ns', pod]);
    const sorted = [
      key('10.1.0.2', 'b'),
      key('10.1.0.10', 'a'),
      key('10.1.0.10', 'a-1'),
      key('10.1.0.10', 'a1'),
      key('10.2.0.1', 'a'),
      key('fd00::9', 'a'),
      key('fd00::10', 'a'),
      key('fd00::a', 'a'),
    ];
    const shuffled = [...sorted].reverse();
    assert.deepEqual(shuffled.sort(compareKeys), sorted);
    assert.equal(compareKeys(key('10.0.0.1', 'a'), key('10.0.0.1', 'a')), 0);
  });

  it('orders endpoint keys of IPv4 and IPv6 addresses as the ICU numeric collation did', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const address = (): string =>
      next(2) === 0
        ? `10.${next(3)}.${next(300)}.${next(256)}`
        : `fd00::${next(4096).toString(16)}:${next(40).toString(16)}`;
    const keys = Array.from({ length: 400 }, () =>
      JSON.stringify([[address()], '', 'ns', `pod-${next(50)}`]),
    );
    for (let i = 1; i < keys.length; i++) {
      const a = keys[i - 1]!;
      const b = keys[i]!;
      const icu = a.localeCompare(b, 'en', { numeric: true });
      assert.equal(Math.sign(compareKeys(a, b)), Math.sign(icu), `${a} vs ${b}`);
    }
  });
});
