/**
 * Simulated nodes against the in-process server. Nodes register Ready with the
 * kubelet's conditions, addresses (dual-stack, NW-08) and podCIDRs; Leases renew; a pod bound by
 * the scheduler runs with an IP from its node's podCIDR, container statuses and conditions; a
 * Job-like pod succeeds; deleting a running pod makes it go away; readiness waits for the probe's
 * initial delay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { RestClient } from '../../src/client/rest-client.js';
import { parseCidr } from '../../src/nodes/cidr.js';
import { Scheduler } from '../../src/nodes/scheduler/scheduler.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function condition(obj: Json, type: string): Json | undefined {
  const status = obj['status'] as Json | undefined;
  return ((status?.['conditions'] as Json[] | undefined) ?? []).find((c) => c['type'] === type);
}

function ipInCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  const p = parseCidr(`${ip}/${c.prefix}`);
  return p.family === c.family && p.base === c.base;
}

describe('simulated nodes', () => {
  let s: TestServer;
  let client: RestClient;
  const abort = new AbortController();
  let runs: Promise<unknown>[] = [];
  let informers: SharedInformerFactory;
  let closeNodesClient = (): void => undefined;
  const errors: unknown[] = [];
  const seen = new Map<string, string[]>();
  /** The nodes' status writes per pod name. */
  const statusPatches = new Map<string, number>();

  const get = async (path: string): Promise<Json> => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };
  const pods = '/api/v1/namespaces/default/pods';
  const pod = (name: string, spec: Json = {}): Json => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: 30, ...spec },
  });

  before(async () => {
    s = await startTestServer({ controllers: false, storage: 'memory' });
    client = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    informers = new SharedInformerFactory({ client, onError: (e) => errors.push(e) });
    // The nodes' own client, counting their status writes.
    const nodesClient = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    const request = nodesClient.request.bind(nodesClient);
    nodesClient.request = (method, path, options) => {
      const m = /\/pods\/([^/]+)\/status$/.exec(path);
      if (method === 'PATCH' && m !== null) statusPatches.set(m[1]!, (statusPatches.get(m[1]!) ?? 0) + 1);
      return request(method, path, options);
    };
    closeNodesClient = () => nodesClient.close();
    const nodes = new SimulatedNodes({
      client: nodesClient,
      informers,
      count: 2,
      podCIDRs: ['10.244.0.0/16', 'fd00:10:244::/56'],
      nodeIPs: ['172.18.0.2', 'fc00::2'],
      nodeTemplate: { capacity: { cpu: '4', memory: '8Gi', pods: '10' } },
      heartbeatIntervalMs: 100,
      statusReportIntervalMs: 200,
      jobPodDurationMs: 200,
      containerCreatingMs: 100,
      onError: (e) => errors.push(e),
    });
    // Every state the pods go through, from the watch (no polling races).
    informers.informerFor('/api/v1/pods').addEventHandler({
      onUpdate: (_, p) => {
        const name = (p['metadata'] as Json)['name'] as string;
        const st = p['status'] as Json;
        const cs = ((st['containerStatuses'] as Json[] | undefined) ?? [])[0];
        const state = cs === undefined ? '' : JSON.stringify(cs['state']);
        seen.set(name, [...(seen.get(name) ?? []), `${String(st['phase'])} ${state}`]);
      },
    });
    const scheduler = new Scheduler({ client, informers, onError: (e) => errors.push(e) });
    runs = [nodes.run(abort.signal), scheduler.run(abort.signal)];
    informers.start(abort.signal);
    assert.equal(await nodes.registered, true);
  });

  after(async () => {
    abort.abort();
    await Promise.all(runs);
    await informers.stopped();
    client.close();
    closeNodesClient();
    await s.stop();
  });

  it('registers Ready nodes as a kubelet does', async () => {
    const node = await get('/api/v1/nodes/nanokube-node-1');
    const meta = node['metadata'] as Json;
    assert.equal((meta['labels'] as Json)['kubernetes.io/hostname'], 'nanokube-node-1');
    const spec = node['spec'] as Json;
    assert.deepEqual(spec['podCIDRs'], ['10.244.1.0/24', 'fd00:10:244:1::/64']);
    assert.equal(spec['podCIDR'], '10.244.1.0/24');
    const status = node['status'] as Json;
    assert.deepEqual(status['addresses'], [
      { type: 'InternalIP', address: '172.18.0.3' },
      { type: 'InternalIP', address: 'fc00::3' },
      { type: 'Hostname', address: 'nanokube-node-1' },
    ]);
    assert.equal((status['capacity'] as Json)['cpu'], '4');
    assert.equal((status['allocatable'] as Json)['pods'], '10');
    assert.equal((status['nodeInfo'] as Json)['kubeletVersion'], 'v1.27.16');
    const ready = condition(node, 'Ready');
    assert.equal(ready?.['status'], 'True');
    assert.equal(ready?.['reason'], 'KubeletReady');
    assert.equal(ready?.['message'], 'kubelet is posting ready status');
    for (const [type, reason] of [
      ['MemoryPressure', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'KubeletHasSufficientPID'],
    ] as const) {
      assert.equal(condition(node, type)?.['status'], 'False');
      assert.equal(condition(node, type)?.['reason'], reason);
    }
  });

  it('renews Leases in kube-node-lease and reports status', async () => {
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/nanokube-node-0';
    const first = await get(path);
    const spec = first['spec'] as Json;
    assert.equal(spec['holderIdentity'], 'nanokube-node-0');
    assert.equal(spec['leaseDurationSeconds'], 40);
    const owner = ((first['metadata'] as Json)['ownerReferences'] as Json[])[0];
    assert.equal(owner?.['kind'], 'Node');
    await until('a renewed lease', async () => {
      const now = await get(path);
      return (now['spec'] as Json)['renewTime'] !== spec['renewTime'] ? now : undefined;
    });
    const node = await get('/api/v1/nodes/nanokube-node-0');
    const hb = condition(node, 'Ready')?.['lastHeartbeatTime'];
    await until('a newer node heartbeat', async () => {
      const n = await get('/api/v1/nodes/nanokube-node-0');
      return condition(n, 'Ready')?.['lastHeartbeatTime'] !== hb ? n : undefined;
    });
  });

  it('runs a scheduled pod with an IP from its node podCIDR', async () => {
    const r = await s.request('POST', pods, {
      body: pod('web', { initContainers: [{ name: 'init', image: 'busybox' }] }),
    });
    assert.equal(r.status, 201, r.text);
    const running = await until('web Running', async () => {
      const p = await get(`${pods}/web`);
      const st = p['status'] as Json;
      return st['phase'] === 'Running' && condition(p, 'Ready')?.['status'] === 'True' ? p : undefined;
    });
    const nodeName = (running['spec'] as Json)['nodeName'] as string;
    const node = await get(`/api/v1/nodes/${nodeName}`);
    const cidrs = (node['spec'] as Json)['podCIDRs'] as string[];
    const st = running['status'] as Json;
    const podIPs = (st['podIPs'] as Json[]).map((p) => p['ip'] as string);
    assert.equal(podIPs.length, 2);
    assert.ok(ipInCidr(podIPs[0]!, cidrs[0]!), `${podIPs[0]} in ${cidrs[0]}`);
    assert.ok(ipInCidr(podIPs[1]!, cidrs[1]!), `${podIPs[1]} in ${cidrs[1]}`);
    assert.equal(st['podIP'], podIPs[0]);
    const addresses = ((node['status'] as Json)['addresses'] as Json[]).map((a) => a['address']);
    assert.equal(st['hostIP'], addresses[0]);
    assert.equal(st['qosClass'], 'BestEffort');
    assert.equal(typeof st['startTime'], 'string');
    assert.deepEqual(
      (st['conditions'] as Json[]).map((c) => `${String(c['type'])}=${String(c['status'])}`),
      ['Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True'],
    );
    const cs = (st['containerStatuses'] as Json[])[0]!;
    assert.equal(cs['ready'], true);
    assert.equal(cs['started'], true);
    assert.equal(cs['restartCount'], 0);
    assert.equal(cs['image'], 'docker.io/library/nginx:latest');
    assert.match(String(cs['imageID']), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(String(cs['containerID']), /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(typeof ((cs['state'] as Json)['running'] as Json)['startedAt'], 'string');
    const states = seen.get('web') ?? [];
    const creating = states.indexOf('Pending {"waiting":{"reason":"PodInitializing"}}');
    assert.ok(creating >= 0, states.join('\n'));
    assert.ok(states.findIndex((x) => x.startsWith('Running')) > creating, states.join('\n'));
    const init = (st['initContainerStatuses'] as Json[])[0]!;
    assert.equal(((init['state'] as Json)['terminated'] as Json)['reason'], 'Completed');
  });

  it('a pod that runs to completion Succeeds', async () => {
    // An image the node does not know runs for jobPodDurationMs (nginx would serve for ever).
    const r = await s.request('POST', pods, {
      body: pod('job', {
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'example.com/batch-job:1' }],
      }),
    });
    assert.equal(r.status, 201, r.text);
    const done = await until('job Succeeded', async () => {
      const p = await get(`${pods}/job`);
      return (p['status'] as Json)['phase'] === 'Succeeded' ? p : undefined;
    });
    const cs = ((done['status'] as Json)['containerStatuses'] as Json[])[0]!;
    const terminated = (cs['state'] as Json)['terminated'] as Json;
    assert.equal(terminated['exitCode'], 0);
    assert.equal(terminated['reason'], 'Completed');
    assert.equal(condition(done, 'Ready')?.['reason'], 'PodCompleted');
  });

  it('deleting a running pod makes it go away', async () => {
    await s.request('POST', pods, { body: pod('doomed') });
    await until('doomed Running', async () => {
      const p = await get(`${pods}/doomed`);
      return (p['status'] as Json)['phase'] === 'Running' ? p : undefined;
    });
    const del = await s.request('DELETE', `${pods}/doomed`);
    assert.equal(del.status, 200, del.text);
    assert.notEqual((del.json()['metadata'] as Json)['deletionTimestamp'], undefined);
    await until('doomed gone', async () =>
      (await s.request('GET', `${pods}/doomed`)).status === 404 ? true : undefined,
    );
  });

  it('readiness waits for the readiness probe initial delay', async () => {
    await s.request('POST', pods, {
      body: pod('probed', {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 1 },
          },
        ],
      }),
    });
    const running = await until('probed Running', async () => {
      const p = await get(`${pods}/probed`);
      return (p['status'] as Json)['phase'] === 'Running' ? p : undefined;
    });
    // Seen Running, the pod is either still unready or already past its delay.
    const seenReady = condition(running, 'Ready')?.['status'];
    assert.ok(seenReady === 'False' || seenReady === 'True');
    const ready = await until('probed Ready', async () => {
      const p = await get(`${pods}/probed`);
      return condition(p, 'Ready')?.['status'] === 'True' ? p : undefined;
    });
    // Turned True, the conditions lose the reason and message they had while False.
    for (const type of ['Ready', 'ContainersReady']) {
      const c = condition(ready, type);
      assert.equal(c?.['reason'], undefined, JSON.stringify(c));
      assert.equal(c?.['message'], undefined, JSON.stringify(c));
    }
  });

  it('a running pod changed by others keeps its status: no status write follows a relabel', async () => {
    await s.request('POST', pods, { body: pod('relabelled') });
    await until('relabelled Running and Ready', async () => {
      const p = await get(`${pods}/relabelled`);
      return condition(p, 'Ready')?.['status'] === 'True' ? p : undefined;
    });
    // Twice: the first sync after the node's own write lets go of the status it wrote and builds
    // on the informer's copy from then on (whose conditions may list their keys in another
    // order); neither sync may write the status again, not even an unchanged one.
    // Two writes so far: ContainerCreating (Pending), then Running and Ready.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(statusPatches.get('relabelled'), 2);
    for (const value of ['a', 'b']) {
      const r = await s.request('PATCH', `${pods}/relabelled`, {
        body: { metadata: { labels: { relabelled: value } } },
        contentType: 'application/merge-patch+json',
      });
      assert.equal(r.status, 200, r.text);
      const written = ((r.json() as Json)['metadata'] as Json)['resourceVersion'];
      await new Promise((resolve) => setTimeout(resolve, 600));
      const now = await get(`${pods}/relabelled`);
      assert.equal((now['metadata'] as Json)['resourceVersion'], written);
      assert.equal((now['status'] as Json)['phase'], 'Running');
      assert.equal(condition(now, 'Ready')?.['status'], 'True');
    }
    assert.equal(statusPatches.get('relabelled'), 2);
  });

  it('reported no errors', () => {
    assert.deepEqual(errors.map(String), []);
  });
});
