/**
 * The ReplicaSet controller against the in-process server: pods from the template with
 * controller ownerReferences, scale up and down, adoption and release, deletion ranking, status.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  ReplicaSetController,
  ReplicationControllerManager,
} from '../../src/controllers/replicaset/replicaset-controller.js';
import type { JsonObject } from '../../src/util/json.js';
import {
  activePods,
  container,
  createNamespace,
  podName,
  readyAll,
  setPodReady,
  startCluster,
  waitFor,
} from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'rs-test';
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const opts = { client: c.client, informers: c.informers, onError: (e: unknown) => c.errors.push(e) };
  const rs = new ReplicaSetController(opts);
  const rc = new ReplicationControllerManager(opts);
  c.start([(s) => rs.run(s), (s) => rc.run(s)]);
});

after(async () => {
  await c.stop();
});

function replicaSet(name: string, replicas: number, app: string, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app, tier: 'web' } }, spec: { containers: [container('nginx')] } },
      ...extra,
    },
  };
}

async function getRS(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${rsPath}/${name}`);
}

async function scale(name: string, replicas: number): Promise<void> {
  await c.client.request('PATCH', `${rsPath}/${name}`, {
    body: { spec: { replicas } },
    contentType: 'application/merge-patch+json',
  });
}

const status = (o: JsonObject): JsonObject => (o['status'] ?? {}) as JsonObject;
const metaOf = (o: JsonObject): JsonObject => o['metadata'] as JsonObject;

test('creates pods from the template with a controller ownerReference and reports status', async () => {
  const rs = await c.client.request('POST', rsPath, { body: replicaSet('web', 3, 'web') });
  const pods = await waitFor('3 pods', async () => {
    const p = await activePods(c.client, ns, 'app=web');
    return p.length === 3 ? p : undefined;
  });
  for (const p of pods) {
    const m = metaOf(p);
    assert.equal(m['generateName'], 'web-');
    assert.match(m['name'] as string, /^web-[a-z0-9]{5}$/);
    assert.deepEqual(m['labels'], { app: 'web', tier: 'web' });
    assert.deepEqual(m['ownerReferences'], [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: metaOf(rs)['uid'],
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  }
  await waitFor('status replicas 3', async () => {
    const s = status(await getRS('web'));
    return s['replicas'] === 3 && s['fullyLabeledReplicas'] === 3 && s['observedGeneration'] === 1;
  });
  await readyAll(c.client, ns, 'app=web');
  await waitFor('ready and available 3', async () => {
    const s = status(await getRS('web'));
    return s['readyReplicas'] === 3 && s['availableReplicas'] === 3;
  });
  // Never more than asked for, even after settling.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await activePods(c.client, ns, 'app=web')).length, 3);
});

test('scales up and down; a deleted pod is replaced', async () => {
  await scale('web', 5);
  await waitFor('5 pods', async () => (await activePods(c.client, ns, 'app=web')).length === 5);
  await scale('web', 2);
  await waitFor('2 pods', async () => (await activePods(c.client, ns, 'app=web')).length === 2);
  await waitFor('status 2, observedGeneration 3', async () => {
    const s = status(await getRS('web'));
    return s['replicas'] === 2 && s['observedGeneration'] === 3;
  });
  const [victim] = await activePods(c.client, ns, 'app=web');
  await c.client.request('DELETE', `/api/v1/namespaces/${ns}/pods/${podName(victim!)}`);
  await waitFor('replacement', async () => {
    const p = await activePods(c.client, ns, 'app=web');
    return p.length === 2 && !p.some((x) => podName(x) === podName(victim!));
  });
});

test('scale down deletes not-ready pods before ready ones', async () => {
  await c.client.request('POST', rsPath, { body: replicaSet('rank', 4, 'rank') });
  const pods = await waitFor('4 pods', async () => {
    const p = await activePods(c.client, ns, 'app=rank');
    return p.length === 4 ? p : undefined;
  });
  const readyNames = new Set(pods.slice(0, 2).map(podName));
  // The third is Running but not ready; the fourth stays Pending. The third is written first: the
  // controller's informer sees events in order, so once its status counts the two ready pods it
  // has seen the third Running too (written last, a loaded machine let the scale-down run before).
  await setPodReady(c.client, pods[2]!, false);
  for (const p of pods.slice(0, 2)) await setPodReady(c.client, p);
  await waitFor('2 ready', async () => status(await getRS('rank'))['readyReplicas'] === 2);
  await scale('rank', 3);
  await waitFor('3 left', async () => (await activePods(c.client, ns, 'app=rank')).length === 3);
  const left = (await activePods(c.client, ns, 'app=rank')).map(podName);
  assert.ok(!left.includes(podName(pods[3]!)), 'the Pending pod goes first');
  await scale('rank', 2);
  await waitFor('2 left', async () => (await activePods(c.client, ns, 'app=rank')).length === 2);
  const final = new Set((await activePods(c.client, ns, 'app=rank')).map(podName));
  assert.deepEqual(final, readyNames, 'the ready pods stay');
});

test('adopts a matching orphan and releases a pod whose labels stop matching', async () => {
  const orphan = await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'orphan', labels: { app: 'adopt' } },
      spec: { containers: [container('nginx')] },
    },
  });
  assert.equal(metaOf(orphan)['ownerReferences'], undefined);
  const rs = await c.client.request('POST', rsPath, { body: replicaSet('adopt', 2, 'adopt') });
  const adopted = await waitFor('orphan adopted', async () => {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/orphan`);
    const refs = metaOf(p)['ownerReferences'] as JsonObject[] | undefined;
    return refs?.[0]?.['uid'] === metaOf(rs)['uid'] ? refs : undefined;
  });
  assert.equal(adopted[0]!['controller'], true);
  assert.equal(adopted[0]!['blockOwnerDeletion'], true);
  // Only one more pod was created: the orphan counts.
  await waitFor('2 pods', async () => (await activePods(c.client, ns, 'app=adopt')).length === 2);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await activePods(c.client, ns, 'app=adopt')).length, 2);
  // Relabel the orphan: released, and replaced.
  await c.client.request('PATCH', `/api/v1/namespaces/${ns}/pods/orphan`, {
    body: { metadata: { labels: { app: 'gone' } } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('orphan released', async () => {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/orphan`);
    const refs = (metaOf(p)['ownerReferences'] ?? []) as JsonObject[];
    return refs.length === 0;
  });
  await waitFor(
    'replacement for the released pod',
    async () => (await activePods(c.client, ns, 'app=adopt')).length === 2,
  );
});

test('availableReplicas waits for minReadySeconds', async () => {
  await c.client.request('POST', rsPath, { body: replicaSet('slow', 1, 'slow', { minReadySeconds: 2 }) });
  const [pod] = await waitFor('1 pod', async () => {
    const p = await activePods(c.client, ns, 'app=slow');
    return p.length === 1 ? p : undefined;
  });
  await setPodReady(c.client, pod!);
  await waitFor('ready 1', async () => status(await getRS('slow'))['readyReplicas'] === 1);
  assert.equal(status(await getRS('slow'))['availableReplicas'], undefined);
  await waitFor(
    'available 1 after minReadySeconds',
    async () => status(await getRS('slow'))['availableReplicas'] === 1,
  );
});

test('terminating pods do not count: a pod with a finalizer being deleted is replaced', async () => {
  await c.client.request('POST', rsPath, {
    body: {
      ...replicaSet('fin', 1, 'fin'),
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'fin' } },
        template: {
          metadata: { labels: { app: 'fin' }, finalizers: ['example.com/hold'] },
          spec: { containers: [container('nginx')] },
        },
      },
    },
  });
  const [pod] = await waitFor('1 pod', async () => {
    const p = await activePods(c.client, ns, 'app=fin');
    return p.length === 1 ? p : undefined;
  });
  await c.client.request('DELETE', `/api/v1/namespaces/${ns}/pods/${podName(pod!)}`);
  await waitFor('a replacement', async () => {
    const p = await activePods(c.client, ns, 'app=fin');
    return p.length === 1 && podName(p[0]!) !== podName(pod!);
  });
  // The controller writes the status after it creates the replacement: the
  // count may still be the one from the terminating pod's moment (0) here.
  await waitFor('status.replicas 1', async () => status(await getRS('fin'))['replicas'] === 1);
  // Let the held pods go.
  for (const p of await c.client
    .request('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dfin`)
    .then((l) => l['items'] as JsonObject[])) {
    await c.client.request('PATCH', `/api/v1/namespaces/${ns}/pods/${podName(p)}`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
  }
});

test('ReplicationControllers get the same treatment', async () => {
  const rc = await c.client.request('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
    body: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy' },
      spec: {
        replicas: 2,
        selector: { app: 'legacy' },
        template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [container('nginx')] } },
      },
    },
  });
  const pods = await waitFor('2 pods', async () => {
    const p = await activePods(c.client, ns, 'app=legacy');
    return p.length === 2 ? p : undefined;
  });
  const ref = (metaOf(pods[0]!)['ownerReferences'] as JsonObject[])[0]!;
  assert.equal(ref['kind'], 'ReplicationController');
  assert.equal(ref['apiVersion'], 'v1');
  assert.equal(ref['uid'], metaOf(rc)['uid']);
  await waitFor('rc status', async () => {
    const s = status(await c.client.request('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/legacy`));
    return s['replicas'] === 2 && s['observedGeneration'] === 1;
  });
});
