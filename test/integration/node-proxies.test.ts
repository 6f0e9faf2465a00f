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
      () => cluster.iptablesSave('nope'),
      /no simulated node "nope" runs a proxy \(they are nanokube-node-0\)/,
    );
  } finally {
    await cluster.stop();
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
