/**
 * NW-08: `startServer` with `nodeIPs` (`nanokube serve --node-ip IP[,IP]`) registers simulated
 * nodes whose InternalIPs count up from the given pair, the primary first, with a podCIDR per
 * family; their pods run with dual-stack podIPs in the same family order, hostIP the primary.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCidr } from '../../src/nodes/cidr.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

type Json = Record<string, unknown>;

function ipInCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  const p = parseCidr(`${ip}/${c.prefix}`);
  return p.family === c.family && p.base === c.base;
}

function dualStackSuite(
  nodeIPs: readonly string[],
  expect: { addresses: string[][]; podCIDRs: string[][] },
): void {
  let s: TestServer;
  const get = async (path: string): Promise<Json> => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };

  before(async () => {
    // Nodes and the scheduler, no controller manager: nothing makes the `default` service account
    // or lifts the not-ready taint of new nodes, so those two admission plugins are off.
    s = await startTestServer({
      storage: 'memory',
      nodes: 2,
      nodeIPs,
      controllerSelection: '',
      admission: { disable: ['ServiceAccount', 'TaintNodesByCondition'] },
    });
  });
  after(async () => {
    await s.stop();
  });

  it('registers nodes with InternalIPs (address + i, the primary first) and Hostname', async () => {
    for (const [i, ips] of expect.addresses.entries()) {
      const name = `nanokube-node-${i}`;
      const node = await waitFor(`node ${name}`, async () => {
        const r = await s.request('GET', `/api/v1/nodes/${name}`);
        return r.status === 200 ? r.json() : undefined;
      });
      const status = node['status'] as Json;
      assert.deepEqual(status['addresses'], [
        ...ips.map((address) => ({ type: 'InternalIP', address })),
        { type: 'Hostname', address: name },
      ]);
      const spec = node['spec'] as Json;
      assert.deepEqual(spec['podCIDRs'], expect.podCIDRs[i]);
      assert.equal(spec['podCIDR'], expect.podCIDRs[i]![0]);
      // No cloud provider: the kubelet writes no provided-node-ip annotation.
      const annotations = (node['metadata'] as Json)['annotations'] as Json;
      assert.equal(annotations['alpha.kubernetes.io/provided-node-ip'], undefined);
    }
  });

  it('runs pods with dual-stack podIPs from the node podCIDRs, hostIP the primary', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    const created = await s.request('POST', pods, { body });
    assert.equal(created.status, 201, created.text);
    const pod = await waitFor('pod web Running', async () => {
      const p = await get(`${pods}/web`);
      return (p['status'] as Json)['phase'] === 'Running' ? p : undefined;
    });
    const spec = pod['spec'] as Json;
    const status = pod['status'] as Json;
    const i = Number(/^nanokube-node-(\d)$/.exec(spec['nodeName'] as string)?.[1]);
    const podIPs = (status['podIPs'] as Json[]).map((p) => p['ip'] as string);
    assert.equal(podIPs.length, 2);
    assert.equal(status['podIP'], podIPs[0]);
    assert.equal(status['hostIP'], expect.addresses[i]![0]);
    expect.podCIDRs[i]!.forEach((cidr, j) => {
      assert.ok(ipInCidr(podIPs[j]!, cidr), `${podIPs[j]} in ${cidr}`);
    });
  });
}

describe('NW-08: startServer with dual-stack nodeIPs 10.1.0.5,fd00::5', () => {
  dualStackSuite(['10.1.0.5', 'fd00::5'], {
    addresses: [
      ['10.1.0.5', 'fd00::5'],
      ['10.1.0.6', 'fd00::6'],
    ],
    podCIDRs: [
      ['10.244.0.0/24', 'fd00:10:244::/64'],
      ['10.244.1.0/24', 'fd00:10:244:1::/64'],
    ],
  });
});

describe('NW-08: startServer with IPv6-primary nodeIPs fd00::5,10.1.0.5', () => {
  dualStackSuite(['fd00::5', '10.1.0.5'], {
    addresses: [
      ['fd00::5', '10.1.0.5'],
      ['fd00::6', '10.1.0.6'],
    ],
    podCIDRs: [
      ['fd00:10:244::/64', '10.244.0.0/24'],
      ['fd00:10:244:1::/64', '10.244.1.0/24'],
    ],
  });
});
