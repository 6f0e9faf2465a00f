import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { ClusterDns } from '../network/cluster-dns.js';
import { parseResolvConf, runDnsTool, searchNames } from './dns-tools.js';
import type { DnsToolContext } from './dns-tools.js';
import { NetFailure } from './shell-net.js';
import { ShellUnsupported } from './shell-parse.js';

const services: JsonObject[] = [
  { metadata: { namespace: 'default', name: 'kubernetes' }, spec: { clusterIP: '10.96.0.1' } },
  {
    metadata: { namespace: 'ns', name: 'externalsvc' },
    spec: { clusterIP: '10.96.7.7', ports: [{ name: 'http', port: 80 }] },
  },
  {
    metadata: { namespace: 'ns', name: 'alias' },
    spec: { type: 'ExternalName', externalName: 'externalsvc.ns.svc.cluster.local' },
  },
];
const zone = new ClusterDns({
  services: () => services,
  slicesOf: () => [],
  pods: () => [],
  nodes: () => [],
});
const resolv =
  'search ns.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n';
const hosts = '127.0.0.1\tlocalhost\n10.244.1.5\tq.hl.ns.svc.cluster.local\tq\n';

function ctx(
  files: Record<string, string> = { '/etc/resolv.conf': resolv, '/etc/hosts': hosts },
): DnsToolContext {
  return {
    read: (p) => files[p],
    net: {
      resolve: () => [],
      tcp: () => '',
      udp: () => undefined,
      http: () => ({ status: 200, headers: {}, body: '' }),
      dns: (server, name, type) => {
        if (server !== '10.96.0.10') throw new NetFailure('timeout', 'timed out');
        return zone.query(name, type);
      },
    },
  };
}

describe('dig, nslookup and getent against the simulated cluster DNS', () => {
  it('reads resolv.conf and builds the search list as the resolver does (ndots)', () => {
    const conf = parseResolvConf(resolv);
    assert.deepEqual(conf.servers, ['10.96.0.10']);
    assert.equal(conf.ndots, 5);
    assert.deepEqual(searchNames('kubernetes.default', conf, true), [
      'kubernetes.default.ns.svc.cluster.local',
      'kubernetes.default.svc.cluster.local',
      'kubernetes.default.cluster.local',
      'kubernetes.default',
    ]);
    assert.deepEqual(searchNames('a.b.c.d.e.f', conf, true)[0], 'a.b.c.d.e.f');
    assert.deepEqual(searchNames('x.', conf, true), ['x']);
  });

  it('dig +search +noall +answer prints the records at BIND columns; +short only the data', () => {
    const r = runDnsTool('dig', ['+notcp', '+noall', '+answer', '+search', 'kubernetes.default', 'A'], ctx());
    assert.equal(r.code, 0);
    assert.equal(r.out, 'kubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\n');
    const short = runDnsTool('dig', ['+short', 'alias.ns.svc.cluster.local', 'CNAME'], ctx());
    assert.equal(short.out, 'externalsvc.ns.svc.cluster.local.\n');
    // Without +search the name is asked as is: nothing outside the zone.
    assert.equal(runDnsTool('dig', ['+noall', '+answer', 'kubernetes.default', 'A'], ctx()).out, '');
    assert.throws(() => runDnsTool('dig', ['kubernetes.default'], ctx()), ShellUnsupported);
  });

  it('dig reports no server after its tries time out (exit 9)', () => {
    const r = runDnsTool('dig', ['@10.0.0.99', '+short', 'x', '+time=1', '+tries=2'], ctx());
    assert.deepEqual(r, {
      code: 9,
      out: ';; connection timed out; no servers could be reached\n',
      err: '',
      elapsedMs: 2000,
    });
  });

  it('nslookup follows the CNAME of an ExternalName Service and exits 0; NXDOMAIN exits 1', () => {
    const ok = runDnsTool('nslookup', ['alias.ns.svc.cluster.local'], ctx());
    assert.equal(ok.code, 0);
    assert.equal(
      ok.out,
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n' +
        'alias.ns.svc.cluster.local\tcanonical name = externalsvc.ns.svc.cluster.local.\n' +
        'Name:\texternalsvc.ns.svc.cluster.local\nAddress: 10.96.7.7\n\n',
    );
    const bad = runDnsTool('nslookup', ['nope.ns.svc.cluster.local'], ctx());
    assert.equal(bad.code, 1);
    assert.match(bad.out, /\*\* server can't find nope\.ns\.svc\.cluster\.local: NXDOMAIN\n/);
  });

  it('getent hosts reads /etc/hosts, then DNS; exit 2 for a name not found', () => {
    const glibc = runDnsTool('getent-glibc', ['hosts', 'q'], ctx());
    assert.deepEqual(glibc, {
      code: 0,
      out: '10.244.1.5      q.hl.ns.svc.cluster.local q\n',
      err: '',
      elapsedMs: 0,
    });
    assert.equal(
      runDnsTool('getent-musl', ['hosts', 'kubernetes.default'], ctx()).out,
      '10.96.0.1         kubernetes.default.svc.cluster.local\n',
    );
    assert.equal(runDnsTool('getent-glibc', ['hosts', 'nope'], ctx()).code, 2);
  });
});
