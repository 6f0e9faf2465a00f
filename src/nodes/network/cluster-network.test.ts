import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { ClusterNetwork, NetworkError } from './cluster-network.js';

const service = (ns: string, name: string, spec: JsonObject): JsonObject => ({
  metadata: { namespace: ns, name },
  spec,
});

const slice = (
  ns: string,
  svc: string,
  port: { name: string; port: number },
  eps: [string, boolean][],
): JsonObject => ({
  metadata: { namespace: ns, name: `${svc}-abc`, labels: { 'kubernetes.io/service-name': svc } },
  addressType: 'IPv4',
  ports: [{ ...port, protocol: 'TCP' }],
  endpoints: eps.map(([ip, ready]) => ({ addresses: [ip], conditions: { ready } })),
});

function network(): ClusterNetwork {
  const services = [
    service('ns', 'web', { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80, targetPort: 8080 }] }),
    service('ns', 'headless', { clusterIP: 'None', ports: [{ port: 80 }] }),
    service('ns', 'outside', { type: 'ExternalName', externalName: 'example.com' }),
    service('ns', 'empty', { clusterIP: '10.96.0.11', ports: [{ port: 80 }] }),
  ];
  const slices = [
    slice('ns', 'web', { name: 'http', port: 8080 }, [
      ['10.244.0.5', true],
      ['10.244.0.6', false],
    ]),
    slice('ns', 'headless', { name: '', port: 80 }, [['10.244.0.7', true]]),
  ];
  const pods = [
    {
      metadata: { namespace: 'ns', name: 'p' },
      spec: { hostname: 'h', subdomain: 'headless' },
      status: { podIPs: [{ ip: '10.244.0.7' }] },
    },
  ];
  return new ClusterNetwork({
    services: () => services,
    slicesOf: (ns, name) =>
      slices.filter(
        (s) =>
          (s['metadata'] as JsonObject)['namespace'] === ns &&
          ((s['metadata'] as JsonObject)['labels'] as Record<string, string>)[
            'kubernetes.io/service-name'
          ] === name,
      ),
    pods: () => pods,
    nodes: () => [],
  });
}

describe('the simulated cluster network', () => {
  it('resolves Service names through the search path, FQDNs, pod hostnames and IPs', () => {
    const n = network();
    assert.deepEqual(n.resolve('ns', 'web'), ['10.96.0.10']);
    assert.deepEqual(n.resolve('other', 'web.ns'), ['10.96.0.10']);
    assert.deepEqual(n.resolve('other', 'web.ns.svc.cluster.local.'), ['10.96.0.10']);
    assert.deepEqual(n.resolve('ns', 'headless'), ['10.244.0.7']);
    assert.deepEqual(n.resolve('ns', 'h.headless'), ['10.244.0.7']);
    assert.deepEqual(n.resolve('ns', '10.1.2.3'), ['10.1.2.3']);
    assert.throws(() => n.resolve('other', 'web'), new NetworkError('dial tcp: lookup web: no such host'));
    assert.throws(
      () => n.resolve('ns', 'outside'),
      new NetworkError('dial tcp: lookup example.com: no such host'),
    );
  });

  it('routes a cluster IP port to a ready endpoint and rejects what kube-proxy rejects', () => {
    const n = network();
    for (let i = 0; i < 10; i++)
      assert.deepEqual(n.route('10.96.0.10', 80, '10.244.0.9'), { ip: '10.244.0.5', port: 8080 });
    assert.throws(
      () => n.route('10.96.0.10', 81, 'c'),
      new NetworkError('dial tcp 10.96.0.10:81: connect: connection refused'),
    );
    assert.throws(
      () => n.route('10.96.0.11', 80, 'c'),
      new NetworkError('dial tcp 10.96.0.11:80: connect: connection refused'),
    );
    assert.deepEqual(n.route('10.244.0.7', 80, 'c'), { ip: '10.244.0.7', port: 80 });
  });
});
