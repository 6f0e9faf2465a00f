/**
 * The node lifecycle controller against the in-process server, with short monitor and
 * grace periods: a node whose Lease and status stop being renewed turns Ready=Unknown with
 * upstream's reason and message, gets the unreachable NoExecute and NoSchedule taints, its pods
 * turn Ready=False, and pods are evicted by their tolerations; a node that comes back loses the
 * taints; kubelet-reported NotReady and cordoning give the not-ready and unschedulable taints.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NodeLifecycleController } from '../../src/controllers/nodelifecycle/node-lifecycle-controller.js';
import type { JsonObject } from '../../src/util/json.js';
import { container, createNamespace, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'nlc-test';
const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const nlc = new NodeLifecycleController({
    client: c.client,
    informers: c.informers,
    onError: (e: unknown) => c.errors.push(e),
    nodeMonitorPeriodMs: 100,
    nodeMonitorGracePeriodMs: 1500,
  });
  c.start([(s) => nlc.run(s)]);
});

after(async () => {
  await c.stop();
});

const micro = (d = new Date()): string => d.toISOString().replace('Z', '000Z');
const secs = (d = new Date()): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

async function readyNode(name: string, ready = 'True'): Promise<void> {
  let node: JsonObject;
  try {
    node = await c.client.request('POST', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name } },
    });
  } catch {
    node = await c.client.request('GET', `/api/v1/nodes/${name}`);
  }
  node['status'] = {
    conditions: [
      {
        type: 'Ready',
        status: ready,
        lastHeartbeatTime: secs(),
        lastTransitionTime: secs(),
        reason: ready === 'True' ? 'KubeletReady' : 'KubeletNotReady',
        message: ready === 'True' ? 'kubelet is posting ready status' : 'container runtime is down',
      },
    ],
  };
  await c.client.request('PUT', `/api/v1/nodes/${name}/status`, { body: node });
}

async function renewLease(name: string): Promise<void> {
  try {
    const lease = await c.client.request('GET', `${leases}/${name}`);
    (lease['spec'] as JsonObject)['renewTime'] = micro();
    await c.client.request('PUT', `${leases}/${name}`, { body: lease });
  } catch {
    await c.client.request('POST', leases, {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro() },
      },
    });
  }
}

async function runningPod(name: string, node: string, tolerations: JsonObject[] = []): Promise<void> {
  const pod = await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { nodeName: node, containers: [container('nginx')], tolerations },
    },
  });
  pod['status'] = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: secs() }],
  };
  await c.client.request('PUT', `/api/v1/namespaces/${ns}/pods/${name}/status`, { body: pod });
}

async function node(name: string): Promise<JsonObject> {
  return c.client.request('GET', `/api/v1/nodes/${name}`);
}

function readyCondition(n: JsonObject): JsonObject | undefined {
  return (((n['status'] as JsonObject)['conditions'] ?? []) as JsonObject[]).find(
    (x) => x['type'] === 'Ready',
  );
}

function taints(n: JsonObject): string[] {
  return (((n['spec'] as JsonObject)['taints'] ?? []) as JsonObject[])
    .map((t) => `${t['key'] as string}:${t['effect'] as string}`)
    .sort();
}

async function pod(name: string): Promise<JsonObject | undefined> {
  try {
    return await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
  } catch {
    return undefined;
  }
}

function terminating(p: JsonObject | undefined): boolean {
  if (p === undefined) return true;
  const ts = (p['metadata'] as JsonObject)['deletionTimestamp'];
  return ts !== undefined && ts !== null;
}

function podReady(p: JsonObject | undefined): unknown {
  return (((p?.['status'] as JsonObject | undefined)?.['conditions'] ?? []) as JsonObject[]).find(
    (x) => x['type'] === 'Ready',
  )?.['status'];
}

test('a node that stops renewing its Lease and status becomes Unknown, tainted, and its pods are evicted by toleration', async () => {
  const keepAlive = new AbortController();
  await readyNode('alive');
  await readyNode('dead');
  await renewLease('alive');
  await renewLease('dead');
  const renewing = (async () => {
    while (!keepAlive.signal.aborted) {
      await renewLease('alive');
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    // DefaultTolerationSeconds gives every pod 300 s tolerations of not-ready and unreachable;
    // tolerating them for 0 s is what a pod without tolerations amounted to before it.
    await runningPod('no-toleration', 'dead', [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 0,
      },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 },
    ]);
    await runningPod('tolerates-forever', 'dead', [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    ]);
    await runningPod('tolerates-1s', 'dead', [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 1,
      },
    ]);
    await runningPod('on-alive', 'alive');

    const dead = await waitFor('the dead node Unknown', async () => {
      const n = await node('dead');
      return readyCondition(n)?.['status'] === 'Unknown' ? n : undefined;
    });
    const cond = readyCondition(dead);
    assert.equal(cond?.['reason'], 'NodeStatusUnknown');
    assert.equal(cond?.['message'], 'Kubelet stopped posting node status.');
    const pressure = (((dead['status'] as JsonObject)['conditions'] ?? []) as JsonObject[]).find(
      (x) => x['type'] === 'MemoryPressure',
    );
    assert.equal(pressure?.['status'], 'Unknown');
    assert.equal(pressure?.['reason'], 'NodeStatusNeverUpdated');
    assert.equal(pressure?.['message'], 'Kubelet never posted node status.');

    await waitFor('the unreachable taints', async () => {
      const t = taints(await node('dead'));
      return t.includes('node.kubernetes.io/unreachable:NoExecute') &&
        t.includes('node.kubernetes.io/unreachable:NoSchedule')
        ? t
        : undefined;
    });
    const noExec = (((await node('dead'))['spec'] as JsonObject)['taints'] as JsonObject[]).find(
      (t) => t['effect'] === 'NoExecute',
    );
    assert.equal(typeof noExec?.['timeAdded'], 'string');

    // Deleted (gracefully: no kubelet finishes it here), with the DisruptionTarget condition first.
    const evicted = await waitFor('the intolerant pod evicted', async () => {
      const p = await pod('no-toleration');
      return terminating(p) ? p : undefined;
    });
    const target = (((evicted['status'] as JsonObject)['conditions'] ?? []) as JsonObject[]).find(
      (x) => x['type'] === 'DisruptionTarget',
    );
    assert.equal(target?.['reason'], 'DeletionByTaintManager');
    assert.equal(target?.['message'], 'Taint manager: deleting due to NoExecute taint');
    await waitFor('the 1 s pod evicted', async () => terminating(await pod('tolerates-1s')));
    const forever = await waitFor('the tolerating pod Ready=False', async () => {
      const p = await pod('tolerates-forever');
      return podReady(p) === 'False' ? p : undefined;
    });
    assert.equal((forever['metadata'] as JsonObject)['deletionTimestamp'] ?? null, null);

    const alive = await node('alive');
    assert.equal(readyCondition(alive)?.['status'], 'True');
    assert.deepEqual(taints(alive), []);
    assert.equal(podReady(await pod('on-alive')), 'True');

    // The node comes back: the taints go.
    await readyNode('dead');
    await renewLease('dead');
    await waitFor('the taints removed', async () => taints(await node('dead')).length === 0);
    assert.equal(podReady(await pod('tolerates-forever')), 'False');
  } finally {
    keepAlive.abort();
    await renewing;
  }
});

test('a kubelet reporting NotReady gets the not-ready taints; a cordoned node the unschedulable taint', async () => {
  await readyNode('sick', 'False');
  await renewLease('sick');
  await waitFor('the not-ready taints', async () => {
    const t = taints(await node('sick'));
    return t.includes('node.kubernetes.io/not-ready:NoExecute') &&
      t.includes('node.kubernetes.io/not-ready:NoSchedule')
      ? t
      : undefined;
  });

  await readyNode('cordoned');
  await renewLease('cordoned');
  await c.client.request('PATCH', '/api/v1/nodes/cordoned', {
    body: { spec: { unschedulable: true } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('the unschedulable taint', async () =>
    taints(await node('cordoned')).includes('node.kubernetes.io/unschedulable:NoSchedule'),
  );
  await c.client.request('PATCH', '/api/v1/nodes/cordoned', {
    body: { spec: { unschedulable: null } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('the unschedulable taint removed', async () => taints(await node('cordoned')).length === 0);
});
