/**
 * The node lifecycle controller
 * and the simulated nodes against the in-process server, all on one FakeClock with upstream's
 * default periods (5 s node monitor, 40 s grace, 10 s Lease heartbeats, 5 s job pods). Nothing
 * waits for those periods in real time: the test moves the fake clock.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NodeLifecycleController } from '../../src/controllers/nodelifecycle/node-lifecycle-controller.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { container, createNamespace, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'fake-clock-nodes';
const clock = new FakeClock(Date.now());
const leasesPath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
let nodes: { steady: SimulatedNodes; lost: SimulatedNodes };
/** Stops the `lost` node's heartbeats (the kubelet dies). */
const lostStop = new AbortController();

before(async () => {
  c = await startCluster({ clock });
  await createNamespace(c.client, ns);
  const common = {
    client: c.client,
    informers: c.informers,
    clock,
    onError: (e: unknown) => c.errors.push(e),
  };
  nodes = {
    steady: new SimulatedNodes({ ...common, names: ['fc-steady'] }),
    lost: new SimulatedNodes({
      ...common,
      names: ['fc-lost'],
      nodeIPs: ['172.18.1.2'],
      podCIDRs: ['10.245.0.0/16'],
    }),
  };
  const nlc = new NodeLifecycleController({ ...common });
  c.start([
    (s) => nodes.steady.run(s),
    (s) => {
      s.addEventListener('abort', () => lostStop.abort(), { once: true });
      return nodes.lost.run(lostStop.signal);
    },
    (s) => nlc.run(s),
  ]);
});

after(async () => {
  await c.stop();
});

const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;

/** The renewTime (ms) of a node's Lease as the shared informer (the controller's) has it. */
function observedRenew(node: string): number | undefined {
  const lease = c.informers.informerFor(leasesPath).store.get(`kube-node-lease/${node}`);
  const t = (lease?.['spec'] as JsonObject | undefined)?.['renewTime'];
  return typeof t === 'string' ? Date.parse(t) : undefined;
}

function readyCondition(n: JsonObject): JsonObject | undefined {
  return (((n['status'] as JsonObject | undefined)?.['conditions'] ?? []) as JsonObject[]).find(
    (x) => x['type'] === 'Ready',
  );
}

async function readyStatus(name: string): Promise<unknown> {
  return readyCondition(await c.client.request('GET', `/api/v1/nodes/${name}`))?.['status'];
}

/**
 * Moves the fake clock 5 s (one node-monitor period) once the steady node's heartbeat has caught
 * up with it (its Lease renewed within the last 10 s, as seen by the controller's informer), so
 * only the lost node misses heartbeats however slowly this machine runs.
 */
async function step(): Promise<void> {
  await waitFor('the steady node heartbeat', () => (observedRenew('fc-steady') ?? 0) > clock.now() - 10_000);
  clock.advance(5_000);
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('#7 FakeClock: a node whose Lease heartbeats stop turns Ready=Unknown only after the 40 s grace period', async () => {
  assert.equal(await nodes.steady.registered, true);
  assert.equal(await nodes.lost.registered, true);
  await waitFor(
    'both Leases observed',
    () => observedRenew('fc-steady') !== undefined && observedRenew('fc-lost'),
  );
  await waitFor(
    'both nodes Ready',
    async () => (await readyStatus('fc-steady')) === 'True' && (await readyStatus('fc-lost')) === 'True',
  );
  lostStop.abort();
  const lastRenew = observedRenew('fc-lost') ?? assert.fail('no Lease of fc-lost');

  // 35 s of fake time without a heartbeat from fc-lost: within the grace period, still Ready.
  while (clock.now() - lastRenew < 35_000) {
    await step();
    await pause(20);
  }
  await pause(200);
  assert.equal(await readyStatus('fc-lost'), 'True');
  assert.equal(observedRenew('fc-lost'), lastRenew, 'the lost node stays silent');
  assert.ok((observedRenew('fc-steady') ?? 0) > lastRenew, 'the steady node heartbeats on the fake clock');

  // Past the grace period: Unknown, with upstream's reason, at a fake-clock transition time.
  const lost = await waitFor('fc-lost Ready=Unknown', async () => {
    const n = await c.client.request('GET', '/api/v1/nodes/fc-lost');
    if (readyCondition(n)?.['status'] === 'Unknown') return n;
    await step();
    return undefined;
  });
  const cond = readyCondition(lost) ?? assert.fail('no Ready condition');
  assert.equal(cond['reason'], 'NodeStatusUnknown');
  assert.equal(cond['message'], 'Kubelet stopped posting node status.');
  const transition = Date.parse(cond['lastTransitionTime'] as string);
  // Written from the fake clock (seconds precision), past the grace period since the last heartbeat.
  assert.ok(transition - lastRenew > 39_000, `Unknown after ${transition - lastRenew} ms`);
  assert.ok(transition <= clock.now());
  await waitFor('the unreachable NoExecute taint on a later monitor pass', async () => {
    const n = await c.client.request('GET', '/api/v1/nodes/fc-lost');
    const taints = ((n['spec'] as JsonObject)['taints'] ?? []) as JsonObject[];
    if (taints.some((t) => t['key'] === 'node.kubernetes.io/unreachable' && t['effect'] === 'NoExecute'))
      return true;
    await step(); // the taint follows on the next monitor pass
    return undefined;
  });
  assert.equal(await readyStatus('fc-steady'), 'True');
  assert.equal(meta(lost)['name'], 'fc-lost');
});

async function podOf(name: string): Promise<JsonObject> {
  return c.client.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
}

function phase(p: JsonObject): unknown {
  return (p['status'] as JsonObject | undefined)?.['phase'];
}

function podReady(p: JsonObject): unknown {
  return (((p['status'] as JsonObject | undefined)?.['conditions'] ?? []) as JsonObject[]).find(
    (x) => x['type'] === 'Ready',
  )?.['status'];
}

test('#7 FakeClock: simulated pod lifecycle durations (job run time, readiness delay) follow the fake clock', async () => {
  await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'job-pod' },
      spec: { nodeName: 'fc-steady', restartPolicy: 'Never', containers: [container('busybox')] },
    },
  });
  await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'slow-ready' },
      spec: {
        nodeName: 'fc-steady',
        containers: [
          { ...container('nginx'), readinessProbe: { initialDelaySeconds: 20, exec: { command: ['true'] } } },
        ],
      },
    },
  });
  await waitFor(
    'both pods Running',
    async () => phase(await podOf('job-pod')) === 'Running' && phase(await podOf('slow-ready')) === 'Running',
  );
  const started = clock.now();
  await pause(300);
  assert.equal(phase(await podOf('job-pod')), 'Running', 'no real time makes the job pod finish');
  assert.notEqual(podReady(await podOf('slow-ready')), 'True');

  clock.advance(5_000); // the simulated job run time (5 s)
  await waitFor('job-pod Succeeded', async () => phase(await podOf('job-pod')) === 'Succeeded');
  assert.notEqual(podReady(await podOf('slow-ready')), 'True', 'its readiness delay is 20 s');

  clock.advance(started + 20_000 - clock.now());
  await waitFor('slow-ready Ready', async () => podReady(await podOf('slow-ready')) === 'True');
});
