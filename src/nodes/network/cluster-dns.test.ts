import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { ClusterDns, reverseName } from './cluster-dns.js';

const service = (ns: string, name: string, spec: JsonObject): JsonObject => ({
  metadata: { namespace: ns, name },
  spec,
});

function dns(): ClusterDns {
  const services = [
    service('default', 'kubernetes', { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443 }] }),
    service('ns', 'web', {
      clusterIP: '10.96.5.5',
      clusterIPs: ['10.96.5.5'],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    }),
    service('ns', 'hl', { clusterIP: 'None', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
    service('ns', 'ext', { type: 'ExternalName', externalName: 'foo.example.com' }),
    service('ns', 'alias', { type: 'ExternalName', externalName: 'web.ns.svc.cluster.local' }),
  ];
  const slices: Record<string, JsonObject[]> = {
    'ns/hl': [
      {
        addressType: 'IPv4',
        ports: [{ name: 'http', port: 8080 }],
        endpoints: [
          { addresses: ['10.244.1.5'], hostname: 'querier', conditions: { ready: true } },
          { addresses: ['10.244.1.6'], conditions: { ready: true } },
          { addresses: ['10.244.1.7'], conditions: { ready: false } },
        ],
      },
    ],
  };
  return new ClusterDns({
    services: () => services,
    slicesOf: (ns, name) => slices[`${ns}/${name}`] ?? [],
    pods: () => [],
    nodes: () => [],
  });
}

const data = (r: ReturnType<ClusterDns['query']>): string[] => r.answers.map((a) => `${a.type} ${a.data}`);

describe('the simulated cluster DNS (CoreDNS kubernetes plugin)', () => {
  it('answers Services by cluster IP, headless Services by ready endpoints, NXDOMAIN otherwise', () => {
    const d = dns();
    assert.deepEqual(data(d.query('kubernetes.default.svc.cluster.local', 'A')), ['A 10.96.0.1']);
    assert.deepEqual(data(d.query('WEB.ns.svc.cluster.local.', 'A')), ['A 10.96.5.5']);
    assert.deepEqual(data(d.query('hl.ns.svc.cluster.local', 'A')), ['A 10.244.1.5', 'A 10.244.1.6']);
    assert.equal(d.query('web.ns.svc.cluster.local', 'AAAA').rcode, 'NOERROR');
    assert.deepEqual(d.query('web.ns.svc.cluster.local', 'AAAA').answers, []);
    assert.equal(d.query('nope.ns.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
    assert.equal(d.query('web.ns.cluster.local', 'A').rcode, 'NXDOMAIN');
    assert.equal(d.query('web', 'A').rcode, 'SERVFAIL');
  });

  it('names endpoints of headless Services by hostname or dashed address, and pods by dashed address', () => {
    const d = dns();
    assert.deepEqual(data(d.query('querier.hl.ns.svc.cluster.local', 'A')), ['A 10.244.1.5']);
    assert.deepEqual(data(d.query('10-244-1-6.hl.ns.svc.cluster.local', 'A')), ['A 10.244.1.6']);
    assert.equal(d.query('10-244-1-7.hl.ns.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
    assert.deepEqual(data(d.query('10-1-2-3.ns.pod.cluster.local', 'A')), ['A 10.1.2.3']);
  });

  it('gives SRV records for named ports, weights shared out of 100', () => {
    const d = dns();
    assert.deepEqual(data(d.query('_http._tcp.web.ns.svc.cluster.local', 'SRV')), [
      'SRV 0 100 80 web.ns.svc.cluster.local.',
    ]);
    assert.deepEqual(data(d.query('_http._tcp.hl.ns.svc.cluster.local', 'SRV')), [
      'SRV 0 50 8080 querier.hl.ns.svc.cluster.local.',
      'SRV 0 50 8080 10-244-1-6.hl.ns.svc.cluster.local.',
    ]);
    assert.equal(d.query('_http._udp.web.ns.svc.cluster.local', 'SRV').rcode, 'NXDOMAIN');
  });

  it('answers ExternalName Services with a CNAME, followed in the zone for addresses', () => {
    const d = dns();
    assert.deepEqual(data(d.query('ext.ns.svc.cluster.local', 'CNAME')), ['CNAME foo.example.com.']);
    assert.deepEqual(data(d.query('alias.ns.svc.cluster.local', 'A')), [
      'CNAME web.ns.svc.cluster.local.',
      'A 10.96.5.5',
    ]);
  });

  it('maps cluster IPs and endpoint addresses back to names (PTR)', () => {
    const d = dns();
    assert.equal(reverseName('10.96.5.5'), '5.5.96.10.in-addr.arpa.');
    assert.deepEqual(data(d.query('5.5.96.10.in-addr.arpa', 'PTR')), ['PTR web.ns.svc.cluster.local.']);
    assert.deepEqual(data(d.query('5.1.244.10.in-addr.arpa.', 'PTR')), [
      'PTR querier.hl.ns.svc.cluster.local.',
    ]);
    assert.equal(d.query('9.9.9.9.in-addr.arpa', 'PTR').rcode, 'SERVFAIL');
    assert.equal(
      reverseName('fd00::1'),
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.d.f.ip6.arpa.',
    );
  });
});
