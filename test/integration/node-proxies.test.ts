/**
 * `--proxy-mode iptables`: every simulated node runs the proxy in-process (on SQLite). Its rules
 * follow the Services and endpoints as kube-proxy's do on a real node (local endpoints of
 * `externalTrafficPolicy: Local` per node, NW-15), each restore is applied and checked by the
 * in-memory iptables (NW-12: every chain jumped to exists), and nodes/{name}:{port}/proxy reaches
 * the node's proxy health (10256, NW-13), its metrics (10249: full then partial syncs, NW-06) and
 * the health check node port of an ETP Local load balancer (200 where an endpoint is, else 503).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startCluster } from '../../src/cluster/start-cluster.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const node0 = 'nanokube-node-0';
const node1 = 'nanokube-node-1';
const ns = '/api/v1/namespaces/default';

let s: TestServer;
before(async () => {
  s = await startTestServer({ nodes: 2, proxyMode: 'iptables' });
});
after(() => s.stop());

async function eventually<T>(what: string, f: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function rules(node: string): string {
  const text = s.nodeProxies?.iptablesSave(node);
  assert.ok(text !== undefined, `node ${node} runs a proxy`);
  return text;
}

/** A number of a metric line (`name value` or `name{labels} value`). */
function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

test('NW-06/NW-12/NW-13/NW-15: the simulated nodes proxy Services, and nodes/proxy reaches their ports', async () => {
  for (const [name, node] of [
    ['web-0', node0],
    ['web-1', node0],
  ] as const) {
    const r = await s.request('POST', `${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app: 'web' } },
        spec: {
          nodeName: node,
          containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 8080 }] }],
        },
      },
    });
    assert.equal(r.status, 201, r.text);
  }
  const created = await s.request('POST', `${ns}/services`, {
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, targetPort: 8080 }],
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  const spec = created.json()['spec'] as {
    clusterIP: string;
    healthCheckNodePort: number;
    ports: { nodePort: number }[];
  };

  // Both nodes route the cluster IP to both endpoints; only node 0 has them locally.
  const podIPs = await eventually('both endpoints in node 0 rules', () => {
    const text = rules(node0);
    const ips = [...text.matchAll(/-j DNAT --to-destination (\S+):8080/g)].map((m) => m[1]);
    return ips.length === 2 ? ips : undefined;
  });
  await eventually('node 1 rules', () => (/--to-destination \S+:8080/.test(rules(node1)) ? true : undefined));
  for (const node of [node0, node1]) {
    const text = rules(node);
    assert.match(
      text,
      new RegExp(
        `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d ${spec.clusterIP.replaceAll('.', '\\.')} --dport 80 -j KUBE-SVC-`,
      ),
    );
    assert.match(
      text,
      new RegExp(
        `-A KUBE-NODEPORTS -m comment --comment default/web:http -m tcp -p tcp --dport ${spec.ports[0]!.nodePort} -j KUBE-EXT-`,
      ),
    );
    assert.match(text, /^-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES$/m);
  }
  // ETP Local: node 1 has no local endpoint, so external traffic there is dropped.
  assert.match(
    rules(node1),
    /-A KUBE-EXTERNAL-SERVICES -m comment --comment "default\/web:http has no local endpoints" .* -j DROP/,
  );
  assert.doesNotMatch(rules(node0), /has no local endpoints/);
  assert.equal(podIPs.length, 2);

  // The proxy's health (NW-13), through the API server's node proxy.
  const healthz = await s.request('GET', `/api/v1/nodes/${node0}:10256/proxy/healthz`);
  assert.equal(healthz.status, 200, healthz.text);
  assert.match(healthz.text, /^\{"lastUpdated": "\d{4}-\d\d-\d\d [\d:.]+ \+0000 UTC","currentTime": ".*"\}$/);
  const notFound = await s.request('GET', `/api/v1/nodes/${node0}:10256/proxy/nope`);
  assert.equal(notFound.status, 404);
  assert.equal(notFound.text, '404 page not found\n');
  const mode = await s.request('GET', `/api/v1/nodes/${node1}:10249/proxy/proxyMode`);
  assert.equal(mode.text, 'iptables');

  // The health check node port: 200 with one local endpoint per pod on node 0, 503 on node 1.
  const hc0 = await s.request('GET', `/api/v1/nodes/${node0}:${spec.healthCheckNodePort}/proxy/`);
  assert.equal(hc0.status, 200, hc0.text);
  assert.equal(
    hc0.text,
    '{\n\t"service": {\n\t\t"namespace": "default",\n\t\t"name": "web"\n\t},\n\t"localEndpoints": 2\n}',
  );
  const hc1 = await s.request('GET', `/api/v1/nodes/${node1}:${spec.healthCheckNodePort}/proxy/`);
  assert.equal(hc1.status, 503);
  assert.match(hc1.text, /"localEndpoints": 0/);

  // One endpoint goes: a partial sync rewrites the Service's chains, with no restore failing.
  const before = (await s.request('GET', `/api/v1/nodes/${node0}:10249/proxy/metrics`)).text;
  assert.ok(metric(before, 'kubeproxy_sync_full_proxy_rules_duration_seconds_count') >= 1, before);
  assert.equal((await s.request('DELETE', `${ns}/pods/web-1?gracePeriodSeconds=0`)).status, 200);
  await eventually('one endpoint left', () => {
    const n = [...rules(node0).matchAll(/-j DNAT --to-destination \S+:8080/g)].length;
    return n === 1 ? true : undefined;
  });
  const after = await eventually('a partial sync counted', async () => {
    const text = (await s.request('GET', `/api/v1/nodes/${node0}:10249/proxy/metrics`)).text;
    return metric(text, 'kubeproxy_sync_partial_proxy_rules_duration_seconds_count') >= 1 ? text : undefined;
  });
  assert.equal(metric(after, 'kubeproxy_sync_proxy_rules_iptables_restore_failures_total'), 0);
  assert.equal(metric(after, 'kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total'), 0);
  const hc = await eventually('health check counts one endpoint', async () => {
    const r = await s.request('GET', `/api/v1/nodes/${node0}:${spec.healthCheckNodePort}/proxy/`);
    return r.text.includes('"localEndpoints": 1') ? r : undefined;
  });
  assert.equal(hc.status, 200);

  // A port nothing of the proxy listens on is dialed as before (the simulated node is not there).
  const unknownNode = await s.request('GET', `/api/v1/nodes/ghost:10256/proxy/healthz`);
  assert.equal(unknownNode.status, 404);
});

test('the test library: cluster.iptablesSave(node), and a clear error without proxies', async () => {
  const cluster = await startCluster({ nodes: 1, proxyMode: 'iptables' });
  try {
    const text = await eventually('the first sync', () => {
      const t = cluster.iptablesSave(node0);
      // The Service's endpoints may come a sync after the Service itself.
      return t.includes('"default/kubernetes:https cluster IP"') ? t : undefined;
    });
    // The kubernetes Service, routed to the API server.
    assert.match(text, /--comment "default\/kubernetes:https cluster IP"/);
    assert.throws(
      () => cluster.ip6tablesSave(node0),
      /simulated node "nanokube-node-0" runs no IPv6 proxy \(the cluster has no IPv6 service range\)/,
    );
    assert.throws(
      () => cluster.iptablesSave('nope'),
      /no simulated node "nope" runs a proxy \(they are nanokube-node-0\)/,
    );
  } finally {
    await cluster.stop();
  }
  const dual = await startCluster({
    nodes: 1,
    proxyMode: 'iptables',
    serviceClusterIPRange: '10.96.0.0/12,fd00:10:96::/112',
  });
  try {
    const text = await eventually('the first IPv6 sync', () => {
      const t = dual.ip6tablesSave(node0);
      return t.includes('KUBE-NODEPORTS') ? t : undefined;
    });
    assert.match(text, /^\*filter\n/);
    assert.doesNotMatch(text, /10\.96\.0\.1/);
  } finally {
    await dual.stop();
  }
  const plain = await startCluster({ nodes: 0, controllers: false });
  try {
    assert.throws(
      () => plain.iptablesSave(node0),
      /no proxies run: start the cluster with proxyMode: "iptables"/,
    );
  } finally {
    await plain.stop();
  }
});

test('a dual-stack cluster: every node runs an IPv4 and an IPv6 proxy; a dual-stack Service is in both tables', async () => {
  const d = await startTestServer({
    nodes: 1,
    proxyMode: 'iptables',
    serviceClusterIPRange: '10.96.0.0/12,fd00:10:96::/112',
    nodeIPs: ['192.0.2.10', 'fd00:192::10'],
  });
  try {
    const pod = await d.request('POST', `${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'dual', labels: { app: 'dual' } },
        spec: { nodeName: node0, containers: [{ name: 'app', image: 'nginx' }] },
      },
    });
    assert.equal(pod.status, 201, pod.text);
    const created = await d.request('POST', `${ns}/services`, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'dual' },
        spec: {
          ipFamilyPolicy: 'RequireDualStack',
          selector: { app: 'dual' },
          ports: [{ name: 'http', port: 80, targetPort: 8080 }],
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    const [ip4, ip6] = (created.json()['spec'] as { clusterIPs: string[] }).clusterIPs;
    const tables = (family: 'IPv4' | 'IPv6'): string => d.nodeProxies?.iptablesSave(node0, family) ?? '';
    // Both families' pod addresses, each DNATed in its own table.
    const v4 = await eventually('the IPv4 rules', () =>
      /--to-destination 10\.244\.\d+\.\d+:8080/.test(tables('IPv4')) ? tables('IPv4') : undefined,
    );
    const v6 = await eventually('the IPv6 rules', () =>
      /--to-destination \[fd00:10:244:[0-9a-f:]+\]:8080/.test(tables('IPv6')) ? tables('IPv6') : undefined,
    );
    assert.ok(v4.includes(`-d ${ip4}/32 --dport 80`) || v4.includes(`-d ${ip4} --dport 80`), v4);
    assert.ok(v6.includes(`-d ${ip6}`), v6);
    assert.doesNotMatch(v4, /fd00/);
    assert.doesNotMatch(v6, /10\.244\./);
    // IPv6 node ports never answer on ::1; no localhost rule in ip6tables' filter table.
    assert.match(v6, /--dst-type LOCAL ! -d ::1\/128 -j KUBE-NODEPORTS/);
    assert.doesNotMatch(v6, /block incoming localnet connections/);
  } finally {
    await d.stop();
  }
});
