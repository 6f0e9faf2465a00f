/**
 * `nanokube serve --nodes 2 --proxy-mode iptables` with kubectl 1.27: a Deployment exposed as a
 * LoadBalancer with `externalTrafficPolicy: Local`; kubectl reaches each simulated node's proxy
 * through the API server's node proxy, as on a real cluster: its health on 10256 (NW-13), its
 * mode and sync metrics on 10249 (NW-06), and the health check node port, which counts the
 * node's own ready endpoints (NW-15): between them the two nodes count both pods.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

describe('nanokube serve --proxy-mode iptables (NW-06, NW-13, NW-15)', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '2', '--proxy-mode', 'iptables'] });
  const nodes = ['nanokube-node-0', 'nanokube-node-1'];

  it('answers the proxy health, metrics and health check node port of every node through kubectl get --raw', async () => {
    await s.namespaceReady('default');
    await s.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await s.ok(['expose', 'deployment', 'web', '--port=80', '--type=LoadBalancer']);
    await s.ok(['patch', 'service', 'web', '-p', '{"spec":{"externalTrafficPolicy":"Local"}}']);
    await s.ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const hcPort = await s.ok(['get', 'service', 'web', '-o', 'jsonpath={.spec.healthCheckNodePort}']);
    assert.match(hcPort, /^\d+$/);

    for (const node of nodes) {
      const healthz = await s.ok(['get', '--raw', `/api/v1/nodes/${node}:10256/proxy/healthz`]);
      assert.match(healthz, /^\{"lastUpdated": ".+ \+0000 UTC","currentTime": ".+ \+0000 UTC"\}$/);
      assert.equal(await s.ok(['get', '--raw', `/api/v1/nodes/${node}:10249/proxy/proxyMode`]), 'iptables');
      const metrics = await s.ok(['get', '--raw', `/api/v1/nodes/${node}:10249/proxy/metrics`]);
      assert.match(metrics, /^kubeproxy_sync_full_proxy_rules_duration_seconds_count [1-9]/m);
    }
    // A 503 from a node without a local endpoint fails `get --raw`: read both with `|| true`-like runs.
    let total = 0;
    for (let i = 0; i < 100; i++) {
      total = 0;
      for (const node of nodes) {
        const r = await s.run(['get', '--raw', `/api/v1/nodes/${node}:${hcPort}/proxy/`]);
        const m = /"localEndpoints": (\d+)/.exec(r.stdout);
        if (m !== null) total += Number(m[1]);
        if (r.code !== 0) assert.match(r.stderr, /ServiceUnavailable|503/);
      }
      if (total === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(total, 2, 'the two nodes count both ready pods as local endpoints between them');
  });

  it('leaves ports no proxy listens on to the dialer (the simulated kubelet is not reachable)', async () => {
    const r = await s.run(['get', '--raw', '/api/v1/nodes/ghost:10256/proxy/healthz']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /nodes "ghost" not found/);
  });

  itStopsCleanly(s);
});
