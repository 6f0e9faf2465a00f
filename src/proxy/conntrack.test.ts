import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../util/json.js';
import { StaleConntrack, clearStaleConntrack, noteStaleConntrack } from './conntrack.js';
import type { ConntrackCleaner, ServiceState } from './conntrack.js';
import { serviceEndpoints } from './endpoints.js';
import { servicePorts } from './service-port.js';

const service = (protocol: string, extra: JsonObject = {}): JsonObject => ({
  metadata: { namespace: 'ns', name: 'dns' },
  spec: {
    type: 'NodePort',
    clusterIP: '10.96.0.10',
    externalIPs: ['192.0.2.7'],
    ports: [{ name: 'p', port: 53, protocol, nodePort: 30053 }],
    ...extra,
  },
});

function state(svc: JsonObject | undefined, endpoints: { ip: string; ready?: boolean }[]): ServiceState {
  if (svc === undefined) return { ports: undefined, endpoints: undefined };
  const protocol = String((svc['spec'] as { ports: { protocol: string }[] }).ports[0]?.protocol);
  const slice: JsonObject = {
    addressType: 'IPv4',
    ports: [{ name: 'p', port: 5353, protocol }],
    endpoints: endpoints.map((e) => ({ addresses: [e.ip], conditions: { ready: e.ready ?? true } })),
  };
  return {
    ports: servicePorts(svc, 'IPv4'),
    endpoints: serviceEndpoints('ns/dns', [slice], { family: 'IPv4', hostname: 'n1' }),
  };
}

const plain = (s: StaleConntrack): unknown => ({
  serviceIPs: [...s.serviceIPs].sort(),
  nodePorts: [...s.nodePorts.values()],
  nat: [...s.nat.values()],
  portNat: [...s.portNat.values()],
});

test('a UDP port going from no ready endpoint to some clears its IPs and node port', () => {
  const s = new StaleConntrack();
  noteStaleConntrack(
    s,
    state(service('UDP'), [{ ip: '10.244.1.2', ready: false }]),
    state(service('UDP'), [{ ip: '10.244.1.2' }]),
  );
  assert.deepEqual(plain(s), {
    serviceIPs: ['10.96.0.10', '192.0.2.7'],
    nodePorts: [{ port: 30053, ipv6: false }],
    nat: [],
    portNat: [],
  });
});

test('a ready UDP endpoint that goes (or stops being ready) clears what was NATed to it', () => {
  for (const after of [[{ ip: '10.244.2.2' }], [{ ip: '10.244.1.2', ready: false }, { ip: '10.244.2.2' }]]) {
    const s = new StaleConntrack();
    noteStaleConntrack(
      s,
      state(service('UDP'), [{ ip: '10.244.1.2' }, { ip: '10.244.2.2' }]),
      state(service('UDP'), after),
    );
    assert.deepEqual(plain(s), {
      serviceIPs: [],
      nodePorts: [],
      nat: [
        { origin: '10.96.0.10', dest: '10.244.1.2' },
        { origin: '192.0.2.7', dest: '10.244.1.2' },
      ],
      portNat: [{ dest: '10.244.1.2', port: 30053 }],
    });
  }
});

test('a deleted UDP Service clears its cluster IP; TCP and unchanged Services clear nothing', () => {
  const s = new StaleConntrack();
  noteStaleConntrack(s, state(service('UDP'), [{ ip: '10.244.1.2' }]), state(undefined, []));
  assert.deepEqual(plain(s), { serviceIPs: ['10.96.0.10'], nodePorts: [], nat: [], portNat: [] });
  const t = new StaleConntrack();
  noteStaleConntrack(t, state(service('TCP'), [{ ip: '10.244.1.2' }]), state(service('TCP'), []));
  noteStaleConntrack(t, state(service('TCP'), []), state(service('TCP'), [{ ip: '10.244.1.2' }]));
  noteStaleConntrack(
    t,
    state(service('UDP'), [{ ip: '10.244.1.2' }]),
    state(service('UDP'), [{ ip: '10.244.1.2' }]),
  );
  assert.ok(t.empty);
});

test('clearing runs every deletion and goes on past one that fails', async () => {
  const calls: string[] = [];
  const errors: unknown[] = [];
  const cleaner: ConntrackCleaner = {
    clearIP: (ip) => {
      calls.push(`ip ${ip}`);
      return ip === '10.96.0.10' ? Promise.reject(new Error('boom')) : Promise.resolve();
    },
    clearPort: (port, ipv6) => (calls.push(`port ${port} ${ipv6}`), Promise.resolve()),
    clearNAT: (o, d) => (calls.push(`nat ${o} ${d}`), Promise.resolve()),
    clearPortNAT: (d, p) => (calls.push(`portnat ${d} ${p}`), Promise.resolve()),
  };
  const s = new StaleConntrack();
  s.serviceIPs.add('10.96.0.10').add('10.96.0.11');
  s.addNodePort(30053, false);
  s.addNat('10.96.0.10', '10.244.1.2');
  s.addPortNat('10.244.1.2', 30053);
  await clearStaleConntrack(s, cleaner, new AbortController().signal, (e) => errors.push(e));
  assert.deepEqual(calls, [
    'ip 10.96.0.10',
    'ip 10.96.0.11',
    'port 30053 false',
    'portnat 10.244.1.2 30053',
    'nat 10.96.0.10 10.244.1.2',
  ]);
  assert.equal(errors.length, 1);
});
