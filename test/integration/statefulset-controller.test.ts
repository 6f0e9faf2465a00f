/**
 * The StatefulSet controller (AM-10) against the in-process server with simulated nodes
 * and the scheduler, so pods really become Running and Ready: ordered creation from
 * `ordinals.start`, identity, claims before pods, ControllerRevisions, rolling update in reverse
 * ordinal order, partitions, Parallel management, OnDelete, scale-down order and the PVC
 * retention policy's owner references.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { StatefulSetController } from '../../src/controllers/statefulset/index.js';
import { Scheduler } from '../../src/nodes/scheduler/scheduler.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import type { JsonObject } from '../../src/util/json.js';
import { activePods, createNamespace, items, podName, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
let nodes: SimulatedNodes;
const ns = 'sts-test';
const setsPath = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
const revPath = `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
const pvcPath = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
/** Pod events as the informer saw them: `ADDED web-0`, `DELETING web-2`. */
const seen: string[] = [];

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const opts = { client: c.client, informers: c.informers, onError: (e: unknown) => c.errors.push(e) };
  const sts = new StatefulSetController(opts);
  nodes = new SimulatedNodes({
    client: c.client,
    informers: c.informers,
    count: 2,
    heartbeatIntervalMs: 1000,
    onError: (e) => c.errors.push(e),
  });
  const scheduler = new Scheduler({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
  });
  c.informers.informerFor('/api/v1/pods').addEventHandler({
    onAdd: (p) => {
      if ((p['metadata'] as JsonObject)['namespace'] === ns) seen.push(`ADDED ${podName(p)}`);
    },
    onUpdate: (old, p) => {
      const om = old['metadata'] as JsonObject;
      const m = p['metadata'] as JsonObject;
      if (m['namespace'] === ns && om['deletionTimestamp'] == null && m['deletionTimestamp'] != null) {
        seen.push(`DELETING ${podName(p)}`);
      }
    },
  });
  c.start([(s) => sts.run(s), (s) => nodes.run(s), (s) => scheduler.run(s)]);
});

after(async () => {
  await c.stop();
});

function statefulSet(name: string, spec: JsonObject): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], terminationGracePeriodSeconds: 0 },
      },
      ...spec,
    },
  };
}

async function getSet(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${setsPath}/${name}`);
}

function status(o: JsonObject): JsonObject {
  return (o['status'] ?? {}) as JsonObject;
}

/** Waits until the set's status says every replica is updated, ready and current. */
async function rolledOut(name: string, replicas: number): Promise<JsonObject> {
  return waitFor(
    `${name} rolled out`,
    async () => {
      const s = await getSet(name);
      const st = status(s);
      const m = s['metadata'] as JsonObject;
      return st['observedGeneration'] === m['generation'] &&
        st['replicas'] === replicas &&
        (st['readyReplicas'] ?? 0) === replicas &&
        (st['updatedReplicas'] ?? 0) === replicas &&
        st['currentRevision'] === st['updateRevision']
        ? s
        : undefined;
    },
    60_000,
  );
}

async function setImage(name: string, image: string, extra: JsonObject = {}): Promise<void> {
  await c.client.request('PATCH', `${setsPath}/${name}`, {
    body: { spec: { template: { spec: { containers: [{ name: 'app', image }] } }, ...extra } },
    contentType: 'application/strategic-merge-patch+json',
  });
}

async function podsOf(name: string): Promise<JsonObject[]> {
  return (await activePods(c.client, ns, `app=${name}`)).sort((a, b) => podName(a).localeCompare(podName(b)));
}

function image(p: JsonObject): string {
  const spec = p['spec'] as JsonObject;
  return ((spec['containers'] as JsonObject[])[0]?.['image'] as string | undefined) ?? '';
}

test('OrderedReady from ordinals.start: pods one at a time with identity, claims first, a revision', async () => {
  await c.client.request('POST', setsPath, {
    body: statefulSet('web', {
      replicas: 3,
      ordinals: { start: 2 },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', labels: { tier: 'db' } },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    }),
  });
  const set = await rolledOut('web', 3);
  const pods = await podsOf('web');
  assert.deepEqual(pods.map(podName), ['web-2', 'web-3', 'web-4']);
  // Ordered: each pod was created only after the previous one.
  assert.deepEqual(
    seen.filter((e) => e.startsWith('ADDED web-')),
    ['ADDED web-2', 'ADDED web-3', 'ADDED web-4'],
  );
  const st = status(set);
  const rev = st['updateRevision'] as string;
  assert.match(rev, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
  for (const p of pods) {
    const m = p['metadata'] as JsonObject;
    const labels = m['labels'] as Record<string, string>;
    assert.equal(labels['statefulset.kubernetes.io/pod-name'], podName(p));
    assert.equal(labels['controller-revision-hash'], rev);
    assert.equal(labels['apps.kubernetes.io/pod-index'], undefined, 'pod-index arrives in v1.28');
    const spec = p['spec'] as JsonObject;
    assert.equal(spec['hostname'], podName(p));
    assert.equal(spec['subdomain'], 'web');
    const vols = spec['volumes'] as JsonObject[];
    assert.deepEqual(vols[0], {
      name: 'data',
      persistentVolumeClaim: { claimName: `data-${podName(p)}` },
    });
    assert.equal((p['status'] as JsonObject)['phase'], 'Running');
    const ref = (m['ownerReferences'] as JsonObject[])[0]!;
    assert.equal(ref['kind'], 'StatefulSet');
    assert.equal(ref['controller'], true);
  }
  const claims = items(await c.client.request('GET', pvcPath)).map((p) => p['metadata'] as JsonObject);
  assert.deepEqual(claims.map((m) => m['name']).sort(), ['data-web-2', 'data-web-3', 'data-web-4']);
  assert.deepEqual(claims[0]!['labels'], { tier: 'db', app: 'web' });
  const revs = items(await c.client.request('GET', revPath)).filter((r) =>
    ((r['metadata'] as JsonObject)['name'] as string).startsWith('web-'),
  );
  assert.equal(revs.length, 1);
  assert.equal((revs[0]!['metadata'] as JsonObject)['name'], rev);
  assert.equal(revs[0]!['revision'], 1);
  assert.equal(st['currentReplicas'], 3);
  assert.equal(st['availableReplicas'], 3);
  assert.equal(st['collisionCount'], 0);
});

test('RollingUpdate replaces pods from the highest ordinal down; a second revision', async () => {
  const before = seen.length;
  const old = status(await getSet('web'))['updateRevision'];
  await setImage('web', 'nginx:1.26');
  const set = await rolledOut('web', 3);
  const st = status(set);
  assert.notEqual(st['updateRevision'], old);
  const pods = await podsOf('web');
  assert.deepEqual(pods.map(image), ['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
  assert.deepEqual(
    seen.slice(before).filter((e) => e.startsWith('DELETING')),
    ['DELETING web-4', 'DELETING web-3', 'DELETING web-2'],
  );
  const revs = items(await c.client.request('GET', revPath))
    .filter((r) => ((r['metadata'] as JsonObject)['name'] as string).startsWith('web-'))
    .map((r) => r['revision'])
    .sort();
  assert.deepEqual(revs, [1, 2]);
});

test('scale-down deletes in reverse ordinal order; whenScaled=Delete gives condemned claims to the pod', async () => {
  await c.client.request('PATCH', `${setsPath}/web`, {
    body: { spec: { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' } } },
    contentType: 'application/merge-patch+json',
  });
  const before = seen.length;
  await c.client.request('PATCH', `${setsPath}/web`, {
    body: { spec: { replicas: 1 } },
    contentType: 'application/merge-patch+json',
  });
  await rolledOut('web', 1);
  await waitFor('one pod left', async () => ((await podsOf('web')).length === 1 ? true : undefined));
  assert.deepEqual(
    seen.slice(before).filter((e) => e.startsWith('DELETING')),
    ['DELETING web-4', 'DELETING web-3'],
  );
  const claim = await c.client.request('GET', `${pvcPath}/data-web-4`);
  const refs = ((claim['metadata'] as JsonObject)['ownerReferences'] ?? []) as JsonObject[];
  assert.deepEqual(
    refs.map((r) => [r['kind'], r['name']]),
    [['Pod', 'web-4']],
  );
  const kept = await c.client.request('GET', `${pvcPath}/data-web-2`);
  assert.equal((kept['metadata'] as JsonObject)['ownerReferences'], undefined);
});

test('scale-down halts while the pods are unhealthy, then deletes from the highest ordinal (upstream firstUnhealthyPod)', async () => {
  const ready = { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1, failureThreshold: 1 };
  await c.client.request('POST', setsPath, {
    body: statefulSet('halt', {
      replicas: 3,
      template: {
        metadata: { labels: { app: 'halt' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'busybox',
              command: ['sh', '-c', 'touch /tmp/ready; sleep 3600'],
              readinessProbe: ready,
            },
          ],
          terminationGracePeriodSeconds: 0,
        },
      },
    }),
  });
  await rolledOut('halt', 3);
  // Each pod's readiness file is removed, as the e2e spec's breakHTTPProbe does through exec.
  const exec = async (cmd: string): Promise<void> => {
    for (const p of await podsOf('halt')) {
      const m = p['metadata'] as JsonObject;
      const ref = { namespace: ns, name: podName(p), uid: m['uid'] as string };
      const out = await nodes.exec(ref, 'app', ['sh', '-c', cmd], '', AbortSignal.timeout(10_000));
      assert.equal(out?.kind === 'ran' && out.code, 0);
    }
  };
  await exec('rm /tmp/ready');
  await waitFor('no ready replica', async () =>
    (status(await getSet('halt'))['readyReplicas'] ?? 0) === 0 ? true : undefined,
  );
  const before = seen.length;
  await c.client.request('PATCH', `${setsPath}/halt`, {
    body: { spec: { replicas: 0 } },
    contentType: 'application/merge-patch+json',
  });
  await new Promise((r) => setTimeout(r, 3000));
  assert.deepEqual(
    seen.slice(before).filter((e) => e.startsWith('DELETING halt')),
    [],
  );
  assert.equal((await podsOf('halt')).length, 3);
  await exec('touch /tmp/ready');
  await waitFor(
    'halt scaled down',
    async () => ((await podsOf('halt')).length === 0 ? true : undefined),
    60_000,
  );
  // The informer that records DELETING may see the last deletion after the API lists no pod.
  await waitFor('the informer saw three deletions', () =>
    Promise.resolve(
      seen.slice(before).filter((e) => e.startsWith('DELETING halt')).length >= 3 ? true : undefined,
    ),
  );
  assert.deepEqual(
    seen.slice(before).filter((e) => e.startsWith('DELETING halt')),
    ['DELETING halt-2', 'DELETING halt-1', 'DELETING halt-0'],
  );
});

test('Parallel with a partition: only ordinals at or above it update, then all', async () => {
  await c.client.request('POST', setsPath, {
    body: statefulSet('par', {
      replicas: 3,
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    }),
  });
  await rolledOut('par', 3);
  await setImage('par', 'nginx:1.26');
  await waitFor(
    'the partitioned update',
    async () => {
      const st = status(await getSet('par'));
      const pods = await podsOf('par');
      return st['updatedReplicas'] === 1 &&
        st['readyReplicas'] === 3 &&
        pods.map(image).join() === 'nginx:1.25,nginx:1.25,nginx:1.26'
        ? true
        : undefined;
    },
    60_000,
  );
  const st = status(await getSet('par'));
  assert.notEqual(st['currentRevision'], st['updateRevision']);
  assert.equal(st['currentReplicas'], 2);
  await c.client.request('PATCH', `${setsPath}/par`, {
    body: { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } },
    contentType: 'application/merge-patch+json',
  });
  await rolledOut('par', 3);
  assert.deepEqual((await podsOf('par')).map(image), ['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
});

test('OnDelete: a new template reaches a pod only when it is deleted', async () => {
  await c.client.request('POST', setsPath, {
    body: statefulSet('od', { replicas: 2, updateStrategy: { type: 'OnDelete' } }),
  });
  await waitFor(
    '2 ready',
    async () => (status(await getSet('od'))['readyReplicas'] === 2 ? true : undefined),
    60_000,
  );
  await setImage('od', 'nginx:1.26');
  await waitFor('a new update revision', async () => {
    const st = status(await getSet('od'));
    return st['updateRevision'] !== st['currentRevision'] && st['observedGeneration'] === 2
      ? true
      : undefined;
  });
  assert.deepEqual((await podsOf('od')).map(image), ['nginx:1.25', 'nginx:1.25']);
  const victim = (await podsOf('od'))[1]!;
  await c.client.request('DELETE', `/api/v1/namespaces/${ns}/pods/od-1`, {
    body: { preconditions: { uid: (victim['metadata'] as JsonObject)['uid'] } },
  });
  await waitFor(
    'od-1 recreated at the new revision',
    async () => {
      const pods = await podsOf('od');
      return pods.map(image).join() === 'nginx:1.25,nginx:1.26' ? true : undefined;
    },
    60_000,
  );
  const st = status(await getSet('od'));
  await waitFor('updatedReplicas 1', async () =>
    status(await getSet('od'))['updatedReplicas'] === 1 ? true : undefined,
  );
  assert.notEqual(st['currentRevision'], st['updateRevision']);
});

test('no controller errors', () => {
  const relevant = c.errors.filter((e) => /StatefulSet/.test(String(e)));
  assert.deepEqual(relevant.map(String), []);
});
