/**
 * The scheduler against the in-process server, with three simulated nodes (2 cpu,
 * 4Gi, 10 pods each). Resource fit, taints and tolerations, nodeSelector, schedulingGates
 * (AM-10), topology spread, pod anti-affinity and basic preemption, and upstream's
 * Unschedulable messages and events.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import { RestClient } from '../../src/client/rest-client.js';
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

function scheduled(p: Json): Json | undefined {
  const conditions = ((p['status'] as Json | undefined)?.['conditions'] as Json[] | undefined) ?? [];
  return conditions.find((c) => c['type'] === 'PodScheduled');
}

function nodeOf(p: Json): string | undefined {
  return (p['spec'] as Json)['nodeName'] as string | undefined;
}

describe('scheduler', () => {
  let s: TestServer;
  let client: RestClient;
  let informers: SharedInformerFactory;
  const abort = new AbortController();
  let runs: Promise<unknown>[] = [];
  const errors: unknown[] = [];
  const ns = '/api/v1/namespaces/default';

  const get = async (path: string): Promise<Json> => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };
  const create = async (name: string, spec: Json = {}, labels: Json = {}): Promise<void> => {
    const r = await s.request('POST', `${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels },
        spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
      },
    });
    assert.equal(r.status, 201, r.text);
  };
  const cpu = (m: string): Json => ({
    containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: m } } }],
  });
  const boundPod = (name: string): Promise<Json> =>
    until(`${name} bound`, async () => {
      const p = await get(`${ns}/pods/${name}`);
      return nodeOf(p) !== undefined ? p : undefined;
    });
  const unschedulable = (name: string): Promise<string> =>
    until(`${name} Unschedulable`, async () => {
      const c = scheduled(await get(`${ns}/pods/${name}`));
      return c?.['reason'] === 'Unschedulable' ? String(c['message']) : undefined;
    });
  const deleteAll = async (...names: string[]): Promise<void> => {
    for (const n of names) await s.request('DELETE', `${ns}/pods/${n}`);
    for (const n of names) {
      await until(`${n} gone`, async () =>
        (await s.request('GET', `${ns}/pods/${n}`)).status === 404 ? true : undefined,
      );
    }
  };
  const patchNode = async (name: string, body: Json): Promise<void> => {
    const r = await s.request('PATCH', `/api/v1/nodes/${name}`, {
      body,
      contentType: 'application/strategic-merge-patch+json',
    });
    assert.equal(r.status, 200, r.text);
    // The scheduler's node cache (the shared informer) has the change before a pod is created:
    // node and pod events travel on separate watches, and a pod seen first is placed on stale
    // nodes.
    const rv = Number(r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
    const store = informers.informerFor('/api/v1/nodes').store;
    await until(`${name} seen at ${rv}`, () => {
      const seen = store.get(name) as { metadata?: { resourceVersion?: string } } | undefined;
      return Promise.resolve(Number(seen?.metadata?.resourceVersion ?? 0) >= rv ? true : undefined);
    });
  };

  before(async () => {
    s = await startTestServer({ controllers: false, storage: 'memory' });
    client = new RestClient({
      server: `https://127.0.0.1:${s.port}`,
      ca: s.pki.caCert,
      cert: s.pki.adminCert,
      key: s.pki.adminKey,
    });
    informers = new SharedInformerFactory({ client, onError: (e) => errors.push(e) });
    const nodes = new SimulatedNodes({
      client,
      informers,
      count: 3,
      nodeTemplate: { capacity: { cpu: '2', memory: '4Gi', pods: '10' } },
      heartbeatIntervalMs: 1000,
      onError: (e) => errors.push(e),
    });
    const scheduler = new Scheduler({ client, informers, onError: (e) => errors.push(e) });
    runs = [nodes.run(abort.signal), scheduler.run(abort.signal)];
    informers.start(abort.signal);
    assert.equal(await nodes.registered, true);
    for (const [i, zone] of ['a', 'a', 'b'].entries()) {
      await patchNode(`nanokube-node-${i}`, {
        metadata: { labels: { 'topology.kubernetes.io/zone': zone } },
      });
    }
  });

  after(async () => {
    abort.abort();
    await Promise.all(runs);
    await informers.stopped();
    client.close();
    await s.stop();
  });

  it('places a pod, binds it with PodScheduled=True and records a Scheduled event', async () => {
    await create('first', cpu('500m'));
    const p = await boundPod('first');
    assert.equal(scheduled(p)?.['status'], 'True');
    const events = await until('Scheduled event', async () => {
      const list = await get('/apis/events.k8s.io/v1/namespaces/default/events');
      const found = (list['items'] as Json[]).find((e) => e['reason'] === 'Scheduled');
      return found;
    });
    assert.equal(events['note'], `Successfully assigned default/first to ${nodeOf(p)}`);
    assert.equal(events['reportingController'], 'default-scheduler');
    assert.equal(events['action'], 'Binding');
    await deleteAll('first');
  });

  it('resource fit: too big for every node gets upstream Unschedulable message', async () => {
    await create('huge', cpu('3'));
    assert.equal(
      await unschedulable('huge'),
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    const event = await until('FailedScheduling event', async () => {
      const list = await get('/apis/events.k8s.io/v1/namespaces/default/events');
      return (list['items'] as Json[]).find((e) => e['reason'] === 'FailedScheduling');
    });
    assert.equal(event['type'], 'Warning');
    assert.equal(event['action'], 'Scheduling');
    await deleteAll('huge');
  });

  it('resource fit: a pod waits for room and is placed once a pod goes away', async () => {
    await create('big-0', cpu('1500m'));
    await create('big-1', cpu('1500m'));
    await create('big-2', cpu('1500m'));
    const placed = await Promise.all(['big-0', 'big-1', 'big-2'].map(boundPod));
    assert.equal(new Set(placed.map(nodeOf)).size, 3, 'one per node');
    await create('big-3', cpu('1'));
    assert.equal(
      await unschedulable('big-3'),
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    await deleteAll('big-1');
    const p = await boundPod('big-3');
    assert.equal(nodeOf(p), nodeOf(placed[1]!));
    await deleteAll('big-0', 'big-2', 'big-3');
  });

  it('taints and tolerations', async () => {
    for (const i of [0, 1, 2]) {
      await patchNode(`nanokube-node-${i}`, {
        spec: { taints: [{ key: 'dedicated', value: i === 2 ? 'gpu' : 'db', effect: 'NoSchedule' }] },
      });
    }
    await create('plain');
    assert.equal(
      await unschedulable('plain'),
      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) had untolerated taint {dedicated: db}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
    );
    await create('gpu', {
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    });
    assert.equal(nodeOf(await boundPod('gpu')), 'nanokube-node-2');
    // Removing the taints lets the waiting pod in.
    for (const i of [0, 1, 2]) await patchNode(`nanokube-node-${i}`, { spec: { taints: null } });
    await boundPod('plain');
    await deleteAll('plain', 'gpu');
  });

  it('nodeSelector and an unschedulable (cordoned) node', async () => {
    await create('in-b', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } });
    assert.equal(nodeOf(await boundPod('in-b')), 'nanokube-node-2');
    await create('in-c', { nodeSelector: { 'topology.kubernetes.io/zone': 'c' } });
    assert.equal(
      await unschedulable('in-c'),
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await patchNode('nanokube-node-2', { spec: { unschedulable: true } });
    await create('in-b-2', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } });
    assert.equal(
      await unschedulable('in-b-2'),
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await patchNode('nanokube-node-2', { spec: { unschedulable: null } });
    assert.equal(nodeOf(await boundPod('in-b-2')), 'nanokube-node-2');
    await deleteAll('in-b', 'in-c', 'in-b-2');
  });

  it('schedulingGates hold a pod until every gate is removed (AM-10)', async () => {
    await create('gated', { schedulingGates: [{ name: 'one' }, { name: 'two' }] });
    const c = scheduled(await get(`${ns}/pods/gated`));
    assert.equal(c?.['reason'], 'SchedulingGated');
    assert.equal(c?.['message'], 'Scheduling is blocked due to non-empty scheduling gates');
    const patch = async (gates: Json[]): Promise<void> => {
      const r = await s.request('PATCH', `${ns}/pods/gated`, {
        body: { spec: { schedulingGates: gates } },
        contentType: 'application/merge-patch+json',
      });
      assert.equal(r.status, 200, r.text);
    };
    await patch([{ name: 'two' }]);
    // Still gated: give the scheduler a moment to (not) act, then check.
    await new Promise((r) => setTimeout(r, 300));
    const still = await get(`${ns}/pods/gated`);
    assert.equal(nodeOf(still), undefined);
    assert.equal(scheduled(still)?.['reason'], 'SchedulingGated');
    await patch([]);
    const p = await boundPod('gated');
    assert.equal(scheduled(p)?.['status'], 'True');
    await deleteAll('gated');
  });

  it('topology spread constraints: maxSkew over zones, missing label', async () => {
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'spread' } },
        },
      ],
    };
    const names = ['s-0', 's-1', 's-2', 's-3'];
    for (const n of names) {
      await create(n, spread, { app: 'spread' });
      await boundPod(n);
    }
    const zones = await Promise.all(
      names.map(async (n) => {
        const node = nodeOf(await get(`${ns}/pods/${n}`));
        return node === 'nanokube-node-2' ? 'b' : 'a';
      }),
    );
    assert.deepEqual(zones.sort(), ['a', 'a', 'b', 'b']);
    await create('s-rack', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
      ],
    });
    assert.equal(
      await unschedulable('s-rack'),
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    await deleteAll(...names, 's-rack');
  });

  it('pod anti-affinity: one per node, the fourth waits', async () => {
    const anti = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'solo' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    };
    const names = ['solo-0', 'solo-1', 'solo-2'];
    for (const n of names) await create(n, anti, { app: 'solo' });
    const placed = await Promise.all(names.map(boundPod));
    assert.equal(new Set(placed.map(nodeOf)).size, 3);
    await create('solo-3', anti, { app: 'solo' });
    assert.equal(
      await unschedulable('solo-3'),
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    );
    await deleteAll(...names, 'solo-3');
  });

  it('preemption: a higher-priority pod evicts a lower-priority one', async () => {
    const pc = await s.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high' },
        value: 1000,
      },
    });
    assert.equal(pc.status, 201, pc.text);
    for (const n of ['low-0', 'low-1', 'low-2']) await create(n, cpu('1500m'));
    const lows = await Promise.all(['low-0', 'low-1', 'low-2'].map(boundPod));
    await create('vip', { ...cpu('1500m'), priorityClassName: 'high', priority: 1000 });
    const p = await boundPod('vip');
    const victim = lows.find((l) => nodeOf(l) === nodeOf(p));
    assert.ok(victim !== undefined);
    const victimName = String((victim['metadata'] as Json)['name']);
    assert.equal((await s.request('GET', `${ns}/pods/${victimName}`)).status, 404);
    const preemptedEvent = await until('Preempted event', async () => {
      const list = await get('/apis/events.k8s.io/v1/namespaces/default/events');
      return (list['items'] as Json[]).find((e) => e['reason'] === 'Preempted');
    });
    assert.equal((preemptedEvent['regarding'] as Json)['name'], victimName);
    await deleteAll('vip', ...['low-0', 'low-1', 'low-2'].filter((n) => n !== victimName));
  });

  it('reported no errors', () => {
    assert.deepEqual(errors.map(String), []);
  });
});
