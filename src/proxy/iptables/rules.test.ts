/**
 * Golden tests of the generated rules (NW-06, NW-12, NW-04, NW-13, NW-15): the scenarios of
 * upstream kube-proxy's proxier_test.go with its inputs and expected iptables-restore text
 * (testdata/, verbatim), compared as upstream compares them: after sortIPTablesRules, which puts
 * tables, chains and the rules of KUBE-SERVICES and KUBE-NODEPORTS in a canonical order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { serviceEndpoints, serviceOfSlice } from '../endpoints.js';
import type { EndpointWithChain } from '../endpoints.js';
import { servicePorts } from '../service-port.js';
import { chainsOf, parseDump } from './dump.js';
import type { DumpRule } from './dump.js';
import { buildRules, probability } from './rules.js';
import type { RulesOptions, SyncPlan } from './rules.js';

const golden = (name: string): string =>
  readFileSync(new URL(`./testdata/${name}.txt`, import.meta.url), 'utf8');

/** Upstream's sortIPTablesRules (proxier_test.go), then the dump printed as upstream prints it. */
function canonical(text: string): string {
  const tables = parseDump(text).sort((a, b) => (a.name < b.name ? -1 : 1));
  const rank = (n: string): string =>
    n === 'KUBE-NODEPORTS' ? '0' : n === 'KUBE-SERVICES' ? '1' : n.startsWith('KUBE-') ? `2${n}` : `3${n}`;
  const serviceName = (r: DumpRule): string | undefined => {
    if (r.comment === undefined) return undefined;
    const i = r.comment.search(/[ :]/);
    return i < 0 ? r.comment : r.comment.slice(0, i);
  };
  const byService = (a: DumpRule, b: DumpRule): number => {
    const x = serviceName(a);
    const y = serviceName(b);
    if (x === undefined || y === undefined) return 0;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const out: string[] = [];
  for (const t of tables) {
    t.chains.sort((a, b) => (rank(a.name) < rank(b.name) ? -1 : 1));
    for (const c of t.chains) {
      if (c.name === 'KUBE-NODEPORTS' || (c.name === 'KUBE-SERVICES' && t.name === 'filter'))
        c.rules.sort(byService);
      if (c.name === 'KUBE-SERVICES' && t.name === 'nat') {
        const last = (r: DumpRule): boolean => r.comment?.includes('must be the last rule') ?? false;
        c.rules.sort((a, b) => (last(a) ? (last(b) ? 0 : 1) : last(b) ? -1 : byService(a, b)));
      }
    }
    out.push(`*${t.name}`, ...t.chains.map((c) => `:${c.name} - [0:0]`));
    for (const c of t.chains) out.push(...c.rules.map((r) => r.raw));
    for (const c of t.chains) if (c.deleted) out.push(`-X ${c.name}`);
    out.push('COMMIT');
  }
  return `${out.join('\n')}\n`;
}

// Upstream's NewFakeProxier: IPv4, --cluster-cidr 10.0.0.0/8, mark 0x4000, node 192.168.0.2
// named test-hostname, localhost node ports, no --random-fully.
const options: RulesOptions = {
  family: 'IPv4',
  masqueradeMark: '0x4000',
  masqueradeAll: false,
  clusterCIDR: '10.0.0.0/8',
  localhostNodePorts: true,
  nodeIP: '192.168.0.2',
  randomFully: false,
  nodeLabels: {},
};
const hostname = 'test-hostname';

function service(ns: string, name: string, spec: JsonObject, status: JsonObject = {}): JsonObject {
  return { metadata: { namespace: ns, name }, spec, status };
}

function slice(ns: string, svc: string, endpoints: JsonObject[], port = 80, portName = 'p80'): JsonObject {
  return {
    metadata: { namespace: ns, name: `${svc}-1`, labels: { 'kubernetes.io/service-name': svc } },
    addressType: 'IPv4',
    endpoints,
    ports: [{ name: portName, port, protocol: 'TCP' }],
  };
}

const p80 = (extra: JsonObject = {}): JsonObject[] => [{ name: 'p80', port: 80, protocol: 'TCP', ...extra }];

function rules(
  services: JsonObject[],
  slices: JsonObject[],
  plan?: SyncPlan,
  o: RulesOptions = options,
): string {
  const ports = services.flatMap((s) => servicePorts(s, 'IPv4'));
  const endpoints = new Map<string, EndpointWithChain[]>();
  const bySvc = new Map<string, JsonObject[]>();
  for (const s of slices) {
    const key = serviceOfSlice(s)!;
    bySvc.set(key, [...(bySvc.get(key) ?? []), s]);
  }
  for (const [svc, list] of bySvc) {
    for (const [k, v] of serviceEndpoints(svc, list, { family: 'IPv4', hostname })) endpoints.set(k, v);
  }
  return buildRules({ ports, endpoints }, o, plan).text;
}

describe('iptables rules (golden, upstream proxier_test.go)', () => {
  test('TestOverallIPTablesRulesWithMultipleServices: ClusterIP, NodePort, external IPs, LoadBalancer with ETP Local and with source ranges, no endpoints', () => {
    const services = [
      service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() }),
      service(
        'ns2',
        'svc2',
        {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          clusterIP: '172.30.0.42',
          ports: p80({ nodePort: 3001 }),
          externalIPs: ['192.168.99.22'],
          healthCheckNodePort: 30000,
        },
        { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
      ),
      service('ns3', 'svc3', { type: 'NodePort', clusterIP: '172.30.0.43', ports: p80({ nodePort: 3003 }) }),
      service('ns4', 'svc4', {
        type: 'NodePort',
        clusterIP: '172.30.0.44',
        externalIPs: ['192.168.99.33'],
        ports: p80({ targetPort: 80 }),
      }),
      service(
        'ns5',
        'svc5',
        {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Cluster',
          clusterIP: '172.30.0.45',
          ports: p80({ nodePort: 3002 }),
          healthCheckNodePort: 30000,
          loadBalancerSourceRanges: [' 203.0.113.0/25'],
        },
        { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } },
      ),
      service('ns6', 'svc6', { type: 'ClusterIP', clusterIP: '172.30.0.46', ports: p80({ targetPort: 80 }) }),
    ];
    const slices = [
      slice('ns1', 'svc1', [{ addresses: ['10.180.0.1'] }]),
      slice('ns2', 'svc2', [{ addresses: ['10.180.0.2'] }]),
      slice('ns3', 'svc3', [{ addresses: ['10.180.0.3'] }]),
      slice('ns4', 'svc4', [
        { addresses: ['10.180.0.4'] },
        { addresses: ['10.180.0.5'], nodeName: hostname },
      ]),
      slice('ns5', 'svc5', [{ addresses: ['10.180.0.3'] }]),
    ];
    assert.equal(canonical(rules(services, slices)), golden('overall-multiple-services'));
  });

  test('TestClusterIPReject: a port without endpoints is rejected in filter', () => {
    const text = rules([service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() })], []);
    assert.equal(canonical(text), golden('cluster-ip-reject'));
  });

  test('TestLoadBalancer: source ranges go through KUBE-FW, the node may reach its LB IPs', () => {
    const text = rules(
      [
        service(
          'ns1',
          'svc1',
          {
            type: 'LoadBalancer',
            clusterIP: '172.30.0.41',
            ports: p80({ nodePort: 3001 }),
            loadBalancerSourceRanges: ['192.168.0.0/24', ' 203.0.113.0/25'],
          },
          { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { ip: '5.6.7.8' }] } },
        ),
      ],
      [slice('ns1', 'svc1', [{ addresses: ['10.180.0.1'] }])],
    );
    assert.equal(canonical(text), golden('load-balancer-source-ranges'));
  });

  test('TestOnlyLocalLoadBalancing: ETP Local with ClientIP affinity (KUBE-SVL, recent matches)', () => {
    const text = rules(
      [
        service(
          'ns1',
          'svc1',
          {
            type: 'LoadBalancer',
            clusterIP: '172.30.0.41',
            ports: p80({ nodePort: 3001 }),
            healthCheckNodePort: 30000,
            externalTrafficPolicy: 'Local',
            sessionAffinity: 'ClientIP',
            sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
          },
          { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
        ),
      ],
      [
        slice('ns1', 'svc1', [
          { addresses: ['10.180.0.1'] },
          { addresses: ['10.180.2.1'], nodeName: hostname },
        ]),
      ],
    );
    assert.equal(canonical(text), golden('etp-local-session-affinity'));
  });

  test('TestInternalTrafficPolicyE2E: ITP Local without local endpoints drops cluster-IP traffic', () => {
    const text = rules(
      [
        service('ns1', 'svc1', {
          clusterIP: '172.30.1.1',
          ports: [{ port: 80, protocol: 'TCP' }],
          internalTrafficPolicy: 'Local',
        }),
      ],
      [
        slice(
          'ns1',
          'svc1',
          [
            { addresses: ['10.0.1.1'], nodeName: 'host0', conditions: { ready: true } },
            { addresses: ['10.0.1.2'], nodeName: 'host1', conditions: { ready: true } },
            { addresses: ['10.0.1.3'], nodeName: 'host2', conditions: { ready: true } },
          ],
          80,
          '',
        ),
      ],
    );
    assert.equal(canonical(text), golden('itp-local-no-local-endpoints'));
  });

  test('TestSyncProxyRulesRepeated: a partial sync writes only the changed Service’s chains and deletes stale ones', () => {
    const svc1 = service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() });
    const svc2 = service('ns2', 'svc2', {
      clusterIP: '172.30.0.42',
      ports: [{ name: 'p8080', port: 8080, protocol: 'TCP' }],
    });
    const svc3 = service('ns3', 'svc3', { clusterIP: '172.30.0.43', ports: p80() });
    const eps1 = slice('ns1', 'svc1', [{ addresses: ['10.0.1.1'] }]);
    const eps2 = slice('ns2', 'svc2', [{ addresses: ['10.0.2.1'] }], 8080, 'p8080');
    const eps3 = slice('ns3', 'svc3', [{ addresses: ['10.0.3.1'] }]);
    const full = rules([svc1, svc2], [eps1, eps2]);
    assert.equal(canonical(full), golden('repeated-1-full'));
    const existing = chainsOf(full, 'nat');
    const add = rules([svc1, svc2, svc3], [eps1, eps2, eps3], {
      changedServices: new Set(['ns3/svc3']),
      existingNatChains: existing,
    });
    assert.equal(canonical(add), golden('repeated-2-add-svc3'));
    const existingAfter = new Set([...existing, ...chainsOf(add, 'nat')]);
    const del = rules([svc1, svc3], [eps1, eps3], {
      changedServices: new Set(['ns2/svc2']),
      existingNatChains: existingAfter,
    });
    assert.equal(canonical(del), golden('repeated-3-delete-svc2'));
  });
});

describe('iptables rules (our order and details)', () => {
  test('the restore text is written in upstream’s generation order', () => {
    const text = rules([service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() })], [], undefined, {
      ...options,
      masqueradeMark: '0x00004000',
      randomFully: true,
    });
    assert.equal(
      text,
      [
        '*filter',
        ':KUBE-SERVICES - [0:0]',
        ':KUBE-EXTERNAL-SERVICES - [0:0]',
        ':KUBE-FORWARD - [0:0]',
        ':KUBE-NODEPORTS - [0:0]',
        ':KUBE-PROXY-FIREWALL - [0:0]',
        ':KUBE-FIREWALL - [0:0]',
        '-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
        '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j REJECT',
        '-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP',
        '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x00004000/0x00004000 -j ACCEPT',
        '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
        'COMMIT',
        '*nat',
        ':KUBE-SERVICES - [0:0]',
        ':KUBE-NODEPORTS - [0:0]',
        ':KUBE-POSTROUTING - [0:0]',
        ':KUBE-MARK-MASQ - [0:0]',
        '-A KUBE-POSTROUTING -m mark ! --mark 0x00004000/0x00004000 -j RETURN',
        '-A KUBE-POSTROUTING -j MARK --xor-mark 0x00004000',
        '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
        '-A KUBE-MARK-MASQ -j MARK --or-mark 0x00004000',
        '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
        'COMMIT',
        '',
      ].join('\n'),
    );
  });

  test('a partial sync after a written one leaves out the fixed chains whose rules are the same (NW-06)', () => {
    const svcs = [1, 2, 3].map((n) =>
      service(`ns${n}`, `svc${n}`, { clusterIP: `172.30.0.4${n}`, ports: p80() }),
    );
    const eps = (last: number): JsonObject[] =>
      [1, 2, 3].map((n) => slice(`ns${n}`, `svc${n}`, [{ addresses: [`10.0.${n}.${n === 2 ? last : 1}`] }]));
    const build = (slices: JsonObject[], plan?: SyncPlan): ReturnType<typeof buildRules> => {
      const ports = svcs.flatMap((s) => servicePorts(s, 'IPv4'));
      const endpoints = new Map<string, EndpointWithChain[]>();
      for (const s of slices) {
        for (const [k, v] of serviceEndpoints(serviceOfSlice(s)!, [s], { family: 'IPv4', hostname }))
          endpoints.set(k, v);
      }
      return buildRules({ ports, endpoints }, options, plan);
    };
    const full = build(eps(1));
    const partial = build(eps(9), {
      changedServices: new Set(['ns2/svc2']),
      existingNatChains: chainsOf(full.text, 'nat'),
      written: full.fixedChains,
    });
    const tables = parseDump(partial.text);
    assert.deepEqual(tables.find((t) => t.name === 'filter')?.chains, []);
    const nat = tables.find((t) => t.name === 'nat')!;
    assert.deepEqual(nat.chains.map((c) => c.name.replace(/-[A-Z0-9]{16}$/, '')).sort(), [
      'KUBE-SEP',
      'KUBE-SEP',
      'KUBE-SVC',
    ]);
    assert.match(partial.text, /--to-destination 10\.0\.2\.9:80/);
    assert.match(partial.text, /^-X KUBE-SEP-/m);
    assert.ok(partial.text.length * 5 < full.text.length);
    // A change to a Service's entry rules rewrites KUBE-SERVICES after all.
    const svcs2 = svcs.map((s, i) =>
      i === 1 ? service('ns2', 'svc2', { clusterIP: '172.30.0.99', ports: p80() }) : s,
    );
    const moved = buildRules(
      {
        ports: svcs2.flatMap((s) => servicePorts(s, 'IPv4')),
        endpoints: new Map(
          eps(1).flatMap((s) => [...serviceEndpoints(serviceOfSlice(s)!, [s], { family: 'IPv4', hostname })]),
        ),
      },
      options,
      {
        changedServices: new Set(['ns2/svc2']),
        existingNatChains: chainsOf(full.text, 'nat'),
        written: full.fixedChains,
      },
    );
    assert.match(moved.text, /^:KUBE-SERVICES - \[0:0\]$/m);
    assert.match(moved.text, /-d 172\.30\.0\.99 --dport 80/);
  });

  test('probabilities as Go prints %0.10f (ties round to even)', () => {
    assert.equal(probability(1), '1.0000000000');
    assert.equal(probability(2), '0.5000000000');
    assert.equal(probability(3), '0.3333333333');
    assert.equal(probability(100001), '0.0000099999');
    assert.equal(probability(2048), '0.0004882812');
    assert.equal(probability(10240), '0.0000976562');
  });

  test('serving terminating endpoints take over when none is ready (NW-15)', () => {
    const text = rules(
      [service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() })],
      [
        slice('ns1', 'svc1', [
          { addresses: ['10.0.1.1'], conditions: { ready: false, serving: true, terminating: true } },
          { addresses: ['10.0.1.2'], conditions: { ready: false, serving: false, terminating: true } },
        ]),
      ],
    );
    assert.match(
      text,
      /-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1\/svc1:p80 -> 10\.0\.1\.1:80" -j KUBE-SEP-/,
    );
    assert.doesNotMatch(text, /10\.0\.1\.2/);
  });

  test('topology hints narrow cluster traffic to the node’s zone for any mode but disabled (NW-04)', () => {
    const svc = (mode: string): JsonObject => ({
      ...service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: p80() }),
      metadata: {
        namespace: 'ns1',
        name: 'svc1',
        annotations: { 'service.kubernetes.io/topology-mode': mode },
      },
    });
    const eps = slice('ns1', 'svc1', [
      { addresses: ['10.0.1.1'], zone: 'a', hints: { forZones: [{ name: 'zone-a' }] } },
      { addresses: ['10.0.1.2'], zone: 'b', hints: { forZones: [{ name: 'zone-b' }] } },
    ]);
    const zoned = { ...options, nodeLabels: { 'topology.kubernetes.io/zone': 'zone-a' } };
    const auto = rules([svc('Auto')], [eps], undefined, zoned);
    assert.match(
      auto,
      /-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1\/svc1:p80 -> 10\.0\.1\.1:80" -j/,
    );
    assert.doesNotMatch(auto, /-> 10\.0\.1\.2:80/);
    const other = rules([svc('PreferZone')], [eps], undefined, zoned);
    assert.doesNotMatch(other, /-> 10\.0\.1\.2:80/);
    const disabled = rules([svc('disabled')], [eps], undefined, zoned);
    assert.match(disabled, /-> 10\.0\.1\.2:80/);
  });

  test('ExternalName and headless Services get no rules', () => {
    const text = rules(
      [
        service('ns1', 'ext', { type: 'ExternalName', externalName: 'example.com', ports: p80() }),
        service('ns1', 'headless', { clusterIP: 'None', ports: p80() }),
      ],
      [],
    );
    assert.doesNotMatch(text, /ns1\//);
  });
});
