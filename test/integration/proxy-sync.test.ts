/**
 * The proxy's sync loop against a real API server (NW-06): the first sync is full, a change of one
 * Service is a partial sync writing only its chains, a deleted Service's chains are deleted, a
 * failed partial restore is counted and followed by a full sync. The backend records what it is
 * given instead of running iptables (the root-only end-to-end test does that).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { serviceChains } from '../../src/proxy/chain-names.js';
import { chainsOf } from '../../src/proxy/iptables/dump.js';
import { MemoryTables } from '../../src/proxy/iptables/memory-tables.js';
import { ProxyMetrics } from '../../src/proxy/metrics.js';
import { Proxier } from '../../src/proxy/proxier.js';
import type { SyncResult } from '../../src/proxy/proxier.js';
import type { HealthCheckTarget } from '../../src/proxy/service-health.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** iptables in memory (applied and checked as iptables-restore --noflush does), recording what it is given. */
class RecordingBackend extends MemoryTables {
  readonly restores: string[] = [];
  jumps = 0;
  failNext = false;
  override async restore(text: string): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('iptables-restore: line 12 failed');
    }
    await super.restore(text);
    this.restores.push(text);
  }
  override ensureJumps(): Promise<void> {
    this.jumps++;
    return super.ensureJumps();
  }
}

describe('the proxy syncs Services and EndpointSlices into iptables rules (NW-06)', () => {
  let s: TestServer;
  let client: RestClient;
  const abort = new AbortController();
  const backend = new RecordingBackend();
  const metrics = new ProxyMetrics();
  const syncs: SyncResult[] = [];
  const health: { targets: HealthCheckTarget[]; counts: ReadonlyMap<string, number> }[] = [];
  let informers: SharedInformerFactory;
  let proxier: Proxier;

  const service = async (name: string, clusterIP: string): Promise<void> => {
    await client.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { clusterIP, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      },
    });
  };
  const slice = async (name: string, ips: string[]): Promise<void> => {
    const body: JsonObject = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${name}-1`, labels: { 'kubernetes.io/service-name': name } },
      addressType: 'IPv4',
      endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    };
    await client.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', { body });
  };
  const settle = async (): Promise<void> => {
    // Informer events arrive shortly after the writes.
    await new Promise((r) => setTimeout(r, 300));
  };

  before(async () => {
    s = await startTestServer();
    client = adminClient(s);
    await service('a', '10.96.0.20');
    await slice('a', ['10.244.0.5']);
    await service('b', '10.96.0.21');
    await slice('b', ['10.244.0.6']);
    informers = new SharedInformerFactory({ client });
    proxier = new Proxier({
      informers,
      nodeName: 'node-0',
      backend,
      metrics,
      rules: { clusterCIDR: '10.244.0.0/16' },
      onSync: (r) => syncs.push(r),
      serviceHealth: { sync: (targets, counts) => health.push({ targets: [...targets], counts }) },
    });
    const started = proxier.start();
    informers.start(abort.signal);
    assert.ok(await started);
  });
  after(async () => {
    abort.abort();
    await informers.stopped();
    client.close();
    await s.close();
  });

  test('the first sync is full: every Service’s chains, and the jumps from the built-in chains', async () => {
    await settle();
    const r = await proxier.sync(abort.signal);
    assert.equal(r.full, true);
    assert.equal(backend.jumps, 1);
    const text = backend.restores.at(-1)!;
    assert.match(
      text,
      /-A KUBE-SERVICES -m comment --comment "default\/a:http cluster IP" -m tcp -p tcp -d 10\.96\.0\.20 --dport 80 -j KUBE-SVC-/,
    );
    assert.match(text, /-j DNAT --to-destination 10\.244\.0\.5:8080/);
    assert.match(text, /-j DNAT --to-destination 10\.244\.0\.6:8080/);
    // The proxy declares KUBE-MARK-MASQ itself (NW-12).
    assert.ok(chainsOf(text, 'nat').has('KUBE-MARK-MASQ'));
  });

  test('one changed endpoint: a partial sync writes only that Service’s chains', async () => {
    const full = backend.restores.at(-1)!;
    await client.request('PATCH', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/b-1', {
      body: { endpoints: [{ addresses: ['10.244.0.7'], conditions: { ready: true } }] },
      contentType: 'application/merge-patch+json',
    });
    await settle();
    const r = await proxier.sync(abort.signal);
    assert.equal(r.full, false);
    assert.equal(r.changedServices, 1);
    const text = backend.restores.at(-1)!;
    assert.doesNotMatch(text, /10\.244\.0\.5:8080/, 'service a is left alone');
    assert.match(text, /--to-destination 10\.244\.0\.7:8080/);
    // The old endpoint's chain is gone.
    assert.match(text, /^-X KUBE-SEP-/m);
    assert.ok(r.bytes < full.length);
    // The fixed chains did not change, so they are not written (--noflush keeps them).
    assert.doesNotMatch(text, /^:KUBE-SERVICES /m);
    assert.doesNotMatch(text, /"default\/a:http cluster IP"/);
  });

  test('a failed partial restore is counted; the next sync is full and writes everything again', async () => {
    await client.request('DELETE', '/api/v1/namespaces/default/services/b');
    await settle();
    backend.failNext = true;
    const failed = await proxier.sync(abort.signal);
    assert.equal(failed.ok, false);
    assert.equal(failed.full, false);
    const counter = await metrics.registry.getSingleMetricAsString(
      'kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total',
    );
    assert.match(counter, /kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total 1/);
    const again = await proxier.sync(abort.signal);
    assert.equal(again.ok, true);
    assert.equal(again.full, true);
    const text = backend.restores.at(-1)!;
    assert.match(text, /10\.244\.0\.5:8080/);
    assert.doesNotMatch(text, /default\/b:http cluster IP/);
    // Service b's chains are deleted (the API server's own `kubernetes` Service stays).
    const bChain = serviceChains('default/b:http', 'tcp').svc;
    assert.match(text, new RegExp(`^-X ${bChain}$`, 'm'));
    const nat = await backend.natChains();
    assert.ok(!nat.has(bChain));
    assert.ok(nat.has(serviceChains('default/a:http', 'tcp').svc));
  });

  test('an ETP Local load balancer: its health check node port counts the ready endpoints on this node (NW-13)', async () => {
    const lb = (await client.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'lb' },
        spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80 }] },
      },
    })) as { spec: { healthCheckNodePort: number } };
    assert.ok(lb.spec.healthCheckNodePort > 0);
    await client.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      body: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'lb-1', labels: { 'kubernetes.io/service-name': 'lb' } },
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.244.0.8'], nodeName: 'node-0', conditions: { ready: true } },
          { addresses: ['10.244.1.8'], nodeName: 'node-1', conditions: { ready: true } },
          { addresses: ['10.244.0.9'], nodeName: 'node-0', conditions: { ready: false } },
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    });
    await settle();
    const r = await proxier.sync(abort.signal);
    assert.equal(r.ok, true);
    const last = health.at(-1)!;
    assert.deepEqual(last.targets, [{ service: 'default/lb', port: lb.spec.healthCheckNodePort }]);
    assert.equal(last.counts.get('default/lb'), 1);
    // Only the local endpoint is reached from outside: KUBE-EXT goes to KUBE-SVL.
    const chains = serviceChains('default/lb:http', 'tcp');
    assert.match(backend.restores.at(-1)!, new RegExp(`^-A ${chains.ext} -j ${chains.svl}$`, 'm'));
    assert.match(
      backend.restores.at(-1)!,
      new RegExp(
        `-A KUBE-NODEPORTS -m comment --comment "default/lb:http health check node port" -m tcp -p tcp --dport ${lb.spec.healthCheckNodePort} -j ACCEPT`,
      ),
    );
  });
});
