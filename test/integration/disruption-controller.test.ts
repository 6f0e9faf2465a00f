/**
 * The disruption controller (AM-22) against the in-process server: PodDisruptionBudget
 * status as upstream v1.27 (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed,
 * observedGeneration, the DisruptionAllowed condition), percentages scaled through the pods'
 * controllers, SyncFailed, and pods/eviction taking disruptions from that status.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import { DeploymentController } from '../../src/controllers/deployment/deployment-controller.js';
import { DisruptionController } from '../../src/controllers/disruption/disruption-controller.js';
import { ReplicaSetController } from '../../src/controllers/replicaset/replicaset-controller.js';
import type { JsonObject } from '../../src/util/json.js';
import {
  activePods,
  container,
  createNamespace,
  podName,
  readyAll,
  startCluster,
  waitFor,
} from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'pdb-test';
const pdbs = `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const opts = { client: c.client, informers: c.informers, onError: (e: unknown) => c.errors.push(e) };
  const rs = new ReplicaSetController(opts);
  const dc = new DeploymentController(opts);
  const pdb = new DisruptionController(opts);
  c.start([(s) => rs.run(s), (s) => dc.run(s), (s) => pdb.run(s)]);
});

after(async () => {
  await c.stop();
});

function podTemplate(app: string): JsonObject {
  return { metadata: { labels: { app } }, spec: { containers: [container('nginx')] } };
}

async function replicaSet(name: string, replicas: number): Promise<void> {
  await c.client.request('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
    },
  });
}

async function budget(name: string, spec: JsonObject): Promise<void> {
  await c.client.request('POST', pdbs, {
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec },
  });
}

async function status(name: string): Promise<JsonObject> {
  const pdb = await c.client.request('GET', `${pdbs}/${name}`);
  return (pdb['status'] ?? {}) as JsonObject;
}

async function readyPods(app: string, n: number): Promise<JsonObject[]> {
  return waitFor(`${n} ready pods of ${app}`, async () => {
    await readyAll(c.client, ns, `app=${app}`);
    const pods = await activePods(c.client, ns, `app=${app}`);
    const ready = pods.filter((p) =>
      (((p['status'] as JsonObject | undefined)?.['conditions'] ?? []) as JsonObject[]).some(
        (x) => x['type'] === 'Ready' && x['status'] === 'True',
      ),
    );
    return ready.length === n && pods.length === n ? pods : undefined;
  });
}

function condition(st: JsonObject): JsonObject | undefined {
  return ((st['conditions'] ?? []) as JsonObject[]).find((x) => x['type'] === 'DisruptionAllowed');
}

async function evict(pod: string): Promise<ApiError | undefined> {
  try {
    await c.client.request('POST', `/api/v1/namespaces/${ns}/pods/${pod}/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: ns } },
    });
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

test('minAvailable 2 over 3 ready pods: status, one eviction allowed, then 429 until pods recover', async () => {
  await replicaSet('web', 3);
  const pods = await readyPods('web', 3);
  await budget('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
  const st = await waitFor('the budget status', async () => {
    const s = await status('web');
    return s['disruptionsAllowed'] === 1 ? s : undefined;
  });
  assert.equal(st['currentHealthy'], 3);
  assert.equal(st['desiredHealthy'], 2);
  assert.equal(st['expectedPods'], 3);
  assert.equal(st['observedGeneration'], 1);
  const cond = condition(st);
  assert.equal(cond?.['status'], 'True');
  assert.equal(cond?.['reason'], 'SufficientPods');
  assert.equal(cond?.['message'], '');
  assert.equal(cond?.['observedGeneration'], 1);

  assert.equal(await evict(podName(pods[0]!)), undefined);
  const denied = await evict(podName(pods[1]!));
  assert.equal(denied?.code, 429);
  assert.equal(
    denied.status?.['message'],
    "Cannot evict pod as it would violate the pod's disruption budget.",
  );
  assert.deepEqual((denied.status?.['details'] as JsonObject | undefined)?.['causes'], [
    {
      reason: 'DisruptionBudget',
      message: 'The disruption budget web needs 2 healthy pods and has 2 currently',
    },
  ]);
  // The replacement pod comes up and turns Ready: a disruption is allowed again, and the evicted
  // pod's disruptedPods entry is gone with it.
  await readyPods('web', 3);
  const again = await waitFor('disruptions allowed again', async () => {
    const s = await status('web');
    return s['disruptionsAllowed'] === 1 && s['disruptedPods'] === undefined ? s : undefined;
  });
  assert.equal(again['currentHealthy'], 3);
  assert.equal(condition(again)?.['reason'], 'SufficientPods');
});

test('maxUnavailable as a percentage scales against the Deployment through its ReplicaSet', async () => {
  await c.client.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: podTemplate('api') },
    },
  });
  await readyPods('api', 4);
  await budget('api', { maxUnavailable: '25%', selector: { matchLabels: { app: 'api' } } });
  const st = await waitFor('the budget status', async () => {
    const s = await status('api');
    return s['expectedPods'] === 4 && s['currentHealthy'] === 4 ? s : undefined;
  });
  assert.equal(st['desiredHealthy'], 3);
  assert.equal(st['disruptionsAllowed'], 1);
  // minAvailable 60% of 4 rounds up to 3 (spec changes bump the generation).
  const pdb = await c.client.request('GET', `${pdbs}/api`);
  (pdb['spec'] as JsonObject)['maxUnavailable'] = null;
  (pdb['spec'] as JsonObject)['minAvailable'] = '80%';
  await c.client.request('PUT', `${pdbs}/api`, { body: pdb });
  const st2 = await waitFor('the new generation observed', async () => {
    const s = await status('api');
    return s['observedGeneration'] === 2 ? s : undefined;
  });
  assert.equal(st2['desiredHealthy'], 4);
  assert.equal(st2['disruptionsAllowed'], 0);
  assert.equal(condition(st2)?.['reason'], 'InsufficientPods');
  assert.equal(condition(st2)?.['status'], 'False');
});

test('a budget matching no pods allows nothing; an unknown controller under a percentage fails the sync', async () => {
  await budget('none', { minAvailable: 1, selector: { matchLabels: { app: 'nothing' } } });
  const st = await waitFor('the empty budget status', async () => {
    const s = await status('none');
    return s['observedGeneration'] === 1 ? s : undefined;
  });
  assert.equal(st['expectedPods'], 0);
  assert.equal(st['disruptionsAllowed'], 0);
  assert.equal(condition(st)?.['reason'], 'InsufficientPods');

  await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'owned-by-cr',
        labels: { app: 'cr' },
        ownerReferences: [
          { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-1', controller: true },
        ],
      },
      spec: { containers: [container('nginx')] },
    },
  });
  await budget('cr', { minAvailable: '50%', selector: { matchLabels: { app: 'cr' } } });
  const failed = await waitFor('SyncFailed', async () => {
    const s = await status('cr');
    return condition(s)?.['reason'] === 'SyncFailed' ? s : undefined;
  });
  assert.equal(failed['disruptionsAllowed'], 0);
  assert.equal(condition(failed)?.['status'], 'False');
  // As upstream's REST mapper reports a kind that is not served (getScaleController).
  assert.equal(condition(failed)?.['message'], 'no matches for kind "Widget" in version "example.com/v1"');
});

async function ownedPod(podName: string, app: string, owner: JsonObject, kind: string): Promise<void> {
  const m = owner['metadata'] as JsonObject;
  await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName,
        labels: { app },
        ownerReferences: [{ apiVersion: 'apps/v1', kind, name: m['name'], uid: m['uid'], controller: true }],
      },
      spec: { containers: [container('nginx')] },
    },
  });
}

test('#7: pods of other controllers are scaled through /scale; a resource without /scale fails the sync', async () => {
  // Pods owned by a Deployment directly (no ReplicaSet in between): no finder knows them, the
  // Deployment's /scale does.
  const d = await c.client.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'scaled' },
      spec: {
        replicas: 4,
        paused: true,
        selector: { matchLabels: { app: 'scaled-template' } },
        template: podTemplate('scaled-template'),
      },
    },
  });
  await ownedPod('scaled-1', 'scaled', d, 'Deployment');
  await ownedPod('scaled-2', 'scaled', d, 'Deployment');
  await budget('scaled', { minAvailable: '50%', selector: { matchLabels: { app: 'scaled' } } });
  const st = await waitFor('expectedPods from /scale', async () => {
    const s = await status('scaled');
    return s['expectedPods'] === 4 ? s : undefined;
  });
  assert.equal(st['desiredHealthy'], 2);
  assert.equal(condition(st)?.['reason'], 'InsufficientPods');

  const ds = await c.client.request('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'noscale' },
      spec: {
        selector: { matchLabels: { app: 'noscale-template' } },
        template: podTemplate('noscale-template'),
      },
    },
  });
  await ownedPod('noscale-1', 'noscale', ds, 'DaemonSet');
  await budget('noscale', { maxUnavailable: 1, selector: { matchLabels: { app: 'noscale' } } });
  const failed = await waitFor('SyncFailed', async () => {
    const s = await status('noscale');
    return condition(s)?.['reason'] === 'SyncFailed' ? s : undefined;
  });
  assert.equal(condition(failed)?.['message'], 'daemonsets.apps does not implement the scale subresource');
});

async function setDisruptionTarget(podName: string, reason: string, at: Date): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/pods/${podName}`;
  const pod = await c.client.request('GET', path);
  const st = (pod['status'] ?? {}) as JsonObject;
  st['conditions'] = [
    ...((st['conditions'] ?? []) as JsonObject[]),
    {
      type: 'DisruptionTarget',
      status: 'True',
      reason,
      message: 'test',
      lastTransitionTime: at.toISOString().replace(/\.\d+Z$/, 'Z'),
    },
  ];
  pod['status'] = st;
  await c.client.request('PUT', `${path}/status`, { body: pod });
}

function disruptionTarget(pod: JsonObject): JsonObject | undefined {
  const st = (pod['status'] ?? {}) as JsonObject;
  return ((st['conditions'] ?? []) as JsonObject[]).find((x) => x['type'] === 'DisruptionTarget');
}

test('#7: a stale DisruptionTarget condition on a pod not being deleted is reset to False', async () => {
  for (const n of ['stale', 'recent', 'kubelet']) {
    await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `dt-${n}`, labels: { app: 'dt' } },
        spec: { containers: [container('nginx')] },
      },
    });
  }
  const longAgo = new Date(Date.now() - 3 * 60 * 1000);
  await setDisruptionTarget('dt-recent', 'EvictionByEvictionAPI', new Date());
  await setDisruptionTarget('dt-kubelet', 'TerminationByKubelet', longAgo);
  await setDisruptionTarget('dt-stale', 'EvictionByEvictionAPI', longAgo);
  const reset = await waitFor('the stale condition reset', async () => {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/dt-stale`);
    return disruptionTarget(p)?.['status'] === 'False' ? disruptionTarget(p) : undefined;
  });
  // The reason and message stay; the transition time is now.
  assert.equal(reset?.['reason'], 'EvictionByEvictionAPI');
  assert.notEqual(reset?.['lastTransitionTime'], longAgo.toISOString().replace(/\.\d+Z$/, 'Z'));
  for (const n of ['recent', 'kubelet']) {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/dt-${n}`);
    assert.equal(disruptionTarget(p)?.['status'], 'True', n);
  }
});
