/**
 * The DaemonSet controller against the in-process server with three simulated nodes
 * and the scheduler: one pod per eligible node, pinned by `metadata.name` node affinity and bound
 * by the scheduler, the daemon tolerations, taints and nodeSelector, status, ControllerRevisions,
 * RollingUpdate with maxUnavailable and with maxSurge, OnDelete, and a node that stops fitting.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DaemonSetController } from '../../src/controllers/daemonset/index.js';
import { Scheduler } from '../../src/nodes/scheduler/scheduler.js';
import { SimulatedNodes } from '../../src/nodes/simulated-nodes.js';
import type { JsonObject } from '../../src/util/json.js';
import { activePods, createNamespace, items, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'ds-test';
const dsPath = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
const nodeNames = ['dsn-a', 'dsn-b', 'dsn-c'];

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const dsc = new DaemonSetController({
    client: c.client,
    informers: c.informers,
    onError: (e: unknown) => c.errors.push(e),
  });
  const nodes = new SimulatedNodes({
    client: c.client,
    informers: c.informers,
    names: nodeNames,
    heartbeatIntervalMs: 1000,
    onError: (e) => c.errors.push(e),
  });
  const scheduler = new Scheduler({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
  });
  c.start([(s) => dsc.run(s), (s) => nodes.run(s), (s) => scheduler.run(s)]);
  await waitFor('nodes registered', async () =>
    items(await c.client.request('GET', '/api/v1/nodes')).length === 3 ? true : undefined,
  );
  // dsn-c is tainted: only DaemonSets tolerating it run there.
  await c.client.request('PATCH', '/api/v1/nodes/dsn-c', {
    body: { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } },
    contentType: 'application/merge-patch+json',
  });
});

after(async () => {
  await c.stop();
});

function daemonSet(name: string, spec: JsonObject = {}, podSpec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image: 'agent:1' }],
          terminationGracePeriodSeconds: 0,
          ...podSpec,
        },
      },
      ...spec,
    },
  };
}

async function getDs(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${dsPath}/${name}`);
}

function status(o: JsonObject): JsonObject {
  return (o['status'] ?? {}) as JsonObject;
}

/** As `kubectl rollout status daemonset/<name>` decides it is done. */
async function rolledOut(name: string, desired: number): Promise<JsonObject> {
  return waitFor(
    `${name} rolled out`,
    async () => {
      const d = await getDs(name);
      const st = status(d);
      const m = d['metadata'] as JsonObject;
      return (m['generation'] as number) <= ((st['observedGeneration'] as number | undefined) ?? 0) &&
        st['desiredNumberScheduled'] === desired &&
        ((st['updatedNumberScheduled'] as number | undefined) ?? 0) >= desired &&
        ((st['numberAvailable'] as number | undefined) ?? 0) >= desired
        ? d
        : undefined;
    },
    60_000,
  );
}

function spec(p: JsonObject): JsonObject {
  return p['spec'] as JsonObject;
}

function image(p: JsonObject): string {
  return ((spec(p)['containers'] as JsonObject[])[0]?.['image'] as string | undefined) ?? '';
}

async function podsOf(name: string): Promise<JsonObject[]> {
  return (await activePods(c.client, ns, `app=${name}`)).sort((a, b) =>
    (spec(a)['nodeName'] as string).localeCompare(spec(b)['nodeName'] as string),
  );
}

async function setImage(name: string, img: string, extra: JsonObject = {}): Promise<void> {
  await c.client.request('PATCH', `${dsPath}/${name}`, {
    body: { spec: { template: { spec: { containers: [{ name: 'app', image: img }] } }, ...extra } },
    contentType: 'application/strategic-merge-patch+json',
  });
}

test('one pod per untainted node, pinned by node affinity, bound by the scheduler, with daemon tolerations', async () => {
  await c.client.request('POST', dsPath, { body: daemonSet('agent') });
  const d = await rolledOut('agent', 2);
  const st = status(d);
  assert.equal(st['currentNumberScheduled'], 2);
  assert.equal(st['numberReady'], 2);
  assert.equal(st['numberMisscheduled'], 0);
  const pods = await podsOf('agent');
  assert.deepEqual(
    pods.map((p) => spec(p)['nodeName']),
    ['dsn-a', 'dsn-b'],
  );
  for (const p of pods) {
    const m = p['metadata'] as JsonObject;
    assert.match(m['name'] as string, /^agent-[a-z0-9]{5}$/);
    const l = m['labels'] as Record<string, string>;
    assert.equal(l['pod-template-generation'], '1');
    assert.match(l['controller-revision-hash'] ?? '', /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.deepEqual((spec(p)['affinity'] as JsonObject)['nodeAffinity'], {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: [spec(p)['nodeName']] }] },
        ],
      },
    });
    const keys = (spec(p)['tolerations'] as JsonObject[]).map(
      (t) => `${t['key'] as string}:${t['effect'] as string}`,
    );
    for (const k of [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]) {
      assert.ok(keys.includes(k), k);
    }
    assert.ok(!keys.includes('node.kubernetes.io/network-unavailable:NoSchedule'));
    assert.equal((p['status'] as JsonObject)['phase'], 'Running');
  }
  const revs = items(await c.client.request('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`));
  assert.equal(revs.length, 1);
  assert.equal(revs[0]!['revision'], 1);
});

test('tolerating the taint and hostNetwork: all three nodes, network-unavailable tolerated', async () => {
  await c.client.request('POST', dsPath, {
    body: daemonSet(
      'net',
      {},
      { hostNetwork: true, tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] },
    ),
  });
  await rolledOut('net', 3);
  const pods = await podsOf('net');
  assert.equal(pods.length, 3);
  const keys = (spec(pods[0]!)['tolerations'] as JsonObject[]).map((t) => t['key']);
  assert.ok(keys.includes('node.kubernetes.io/network-unavailable'));
  assert.equal(keys[0], 'dedicated');
});

test('nodeSelector limits the nodes; a node losing its label loses its pod', async () => {
  await c.client.request('PATCH', '/api/v1/nodes/dsn-a', {
    body: { metadata: { labels: { role: 'edge' } } },
    contentType: 'application/merge-patch+json',
  });
  await c.client.request('POST', dsPath, { body: daemonSet('edge', {}, { nodeSelector: { role: 'edge' } }) });
  await rolledOut('edge', 1);
  assert.deepEqual(
    (await podsOf('edge')).map((p) => spec(p)['nodeName']),
    ['dsn-a'],
  );
  await c.client.request('PATCH', '/api/v1/nodes/dsn-a', {
    body: { metadata: { labels: { role: null } } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor(
    'the edge pod gone',
    async () => ((await podsOf('edge')).length === 0 ? true : undefined),
    60_000,
  );
  await waitFor('desired 0', async () =>
    status(await getDs('edge'))['desiredNumberScheduled'] === 0 ? true : undefined,
  );
});

test('RollingUpdate with maxUnavailable replaces every pod; a second revision', async () => {
  const before = status(await getDs('agent'));
  await setImage('agent', 'agent:2');
  await waitFor('generation observed', async () =>
    status(await getDs('agent'))['observedGeneration'] === 2 ? true : undefined,
  );
  await rolledOut('agent', 2);
  await waitFor('old pods gone', async () =>
    (await podsOf('agent')).map(image).join() === 'agent:2,agent:2' ? true : undefined,
  );
  const revs = items(await c.client.request('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`))
    .filter((r) => ((r['metadata'] as JsonObject)['name'] as string).startsWith('agent-'))
    .map((r) => r['revision'])
    .sort();
  assert.deepEqual(revs, [1, 2]);
  assert.equal(before['numberMisscheduled'], 0);
});

test('RollingUpdate with maxSurge starts the new pod before the old one goes', async () => {
  await c.client.request('PATCH', `${dsPath}/agent`, {
    body: {
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
    },
    contentType: 'application/merge-patch+json',
  });
  await setImage('agent', 'agent:3');
  await rolledOut('agent', 2);
  await waitFor('old pods gone', async () =>
    (await podsOf('agent')).map(image).join() === 'agent:3,agent:3' ? true : undefined,
  );
});

test('OnDelete: pods change only when deleted', async () => {
  await c.client.request('PATCH', `${dsPath}/agent`, {
    body: { spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: null } } },
    contentType: 'application/merge-patch+json',
  });
  await setImage('agent', 'agent:4');
  await waitFor('generation observed', async () => {
    const d = await getDs('agent');
    return status(d)['observedGeneration'] === (d['metadata'] as JsonObject)['generation'] ? true : undefined;
  });
  assert.deepEqual((await podsOf('agent')).map(image), ['agent:3', 'agent:3']);
  const victim = (await podsOf('agent'))[0]!;
  await c.client.request(
    'DELETE',
    `/api/v1/namespaces/${ns}/pods/${(victim['metadata'] as JsonObject)['name'] as string}`,
  );
  await waitFor(
    'the replacement at the new template',
    async () => ((await podsOf('agent')).map(image).sort().join() === 'agent:3,agent:4' ? true : undefined),
    60_000,
  );
  await waitFor('updatedNumberScheduled 1', async () =>
    status(await getDs('agent'))['updatedNumberScheduled'] === 1 ? true : undefined,
  );
});

function meta(o: JsonObject): JsonObject {
  return o['metadata'] as JsonObject;
}

function controllerRefs(o: JsonObject): JsonObject[] {
  return ((meta(o)['ownerReferences'] ?? []) as JsonObject[]).filter((r) => r['controller'] === true);
}

test('#7: a matching orphan pod is adopted (controllerRef patched in), not duplicated on its node', async () => {
  const orphan = await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'adopt-orphan', labels: { app: 'adopt' } },
      spec: {
        nodeName: 'dsn-a',
        containers: [{ name: 'app', image: 'agent:1' }],
        terminationGracePeriodSeconds: 0,
      },
    },
  });
  // OnDelete, so the adopted (not updated) pod is not replaced by a rolling update.
  await c.client.request('POST', dsPath, {
    body: daemonSet('adopt', { updateStrategy: { type: 'OnDelete' } }),
  });
  const ds = await getDs('adopt');
  const adopted = await waitFor('the orphan adopted', async () => {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/adopt-orphan`);
    return controllerRefs(p).length === 1 ? p : undefined;
  });
  assert.equal(meta(adopted)['uid'], meta(orphan)['uid']);
  assert.deepEqual(controllerRefs(adopted)[0], {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    name: 'adopt',
    uid: meta(ds)['uid'],
    controller: true,
    blockOwnerDeletion: true,
  });
  await waitFor('a pod on each untainted node, the orphan kept', async () => {
    const pods = await podsOf('adopt');
    const nodes = pods.map((p) => spec(p)['nodeName'] as string).join();
    return nodes === 'dsn-a,dsn-b' && pods.some((p) => meta(p)['name'] === 'adopt-orphan') ? true : undefined;
  });
  // Give a wrongly duplicating controller the chance to act, then check again.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await podsOf('adopt')).length, 2);
  const st = status(
    await waitFor('status', async () => {
      const d = await getDs('adopt');
      return status(d)['currentNumberScheduled'] === 2 ? d : undefined;
    }),
  );
  assert.equal(st['desiredNumberScheduled'], 2);
  assert.equal(st['numberMisscheduled'], 0);
});

test('#7: an owned pod whose labels stop matching is released and replaced', async () => {
  const pods = await podsOf('adopt');
  const victim = pods.find((p) => spec(p)['nodeName'] === 'dsn-b')!;
  const victimName = meta(victim)['name'] as string;
  await c.client.request('PATCH', `/api/v1/namespaces/${ns}/pods/${victimName}`, {
    body: { metadata: { labels: { app: 'released' } } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('the pod released', async () => {
    const p = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods/${victimName}`);
    return controllerRefs(p).length === 0 ? true : undefined;
  });
  await waitFor('a replacement on dsn-b', async () => {
    const now = await podsOf('adopt');
    return now.some((p) => spec(p)['nodeName'] === 'dsn-b' && meta(p)['name'] !== victimName)
      ? true
      : undefined;
  });
  await c.client.request('DELETE', `/api/v1/namespaces/${ns}/pods/${victimName}`);
});

test('#7: an orphan ControllerRevision matching the selector is adopted; the current one is numbered after it', async () => {
  const revs = `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
  await c.client.request('POST', revs, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'history-old', labels: { app: 'history' } },
      data: {
        spec: {
          template: {
            $patch: 'replace',
            metadata: { labels: { app: 'history' } },
            spec: { containers: [{ name: 'app', image: 'agent:0' }] },
          },
        },
      },
      revision: 5,
    },
  });
  await c.client.request('POST', dsPath, { body: daemonSet('history') });
  const ds = await getDs('history');
  await rolledOut('history', 2);
  const adopted = await waitFor('the orphan revision adopted', async () => {
    const r = await c.client.request('GET', `${revs}/history-old`);
    return controllerRefs(r).length === 1 ? r : undefined;
  });
  assert.equal(controllerRefs(adopted)[0]?.['uid'], meta(ds)['uid']);
  // The adopted revision lacked the hash label: it is labelled with its name.
  assert.equal(
    (meta(adopted)['labels'] as Record<string, string>)['controller-revision-hash'],
    'history-old',
  );
  const mine = items(await c.client.request('GET', `${revs}?labelSelector=app%3Dhistory`));
  const current = mine.find((r) => meta(r)['name'] !== 'history-old');
  assert.equal(current?.['revision'], 6);
  const hash = (meta(current)['labels'] as Record<string, string>)['controller-revision-hash'];
  assert.equal(meta(current)['name'], `history-${hash ?? ''}`);
  for (const p of await podsOf('history')) {
    assert.equal((meta(p)['labels'] as Record<string, string>)['controller-revision-hash'], hash);
  }
});

test('no controller errors', () => {
  // A conflict (409) is optimistic concurrency doing its job: the key is retried, as upstream's.
  const errors = c.errors.map(String).filter((e) => /DaemonSet/.test(e) && !/API error 409/.test(e));
  assert.deepEqual(errors, []);
});
