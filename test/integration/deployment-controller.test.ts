/**
 * The Deployment controller with the ReplicaSet controller against the in-process
 * server; pods are made Ready by writing their status (no nodes yet). kubectl 1.27 drives
 * `rollout status|restart|undo|pause|resume` where it is installed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DeploymentController } from '../../src/controllers/deployment/deployment-controller.js';
import { ReplicaSetController } from '../../src/controllers/replicaset/replicaset-controller.js';
import { computeHash } from '../../src/controllers/util/hash.js';
import type { JsonObject } from '../../src/util/json.js';
import { findKubectl } from '../support/kubectl.js';
import {
  activePods,
  container,
  createNamespace,
  items,
  readyAll,
  setPodReady,
  startCluster,
  waitFor,
} from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'deploy-test';
const dPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const kubectlBin = findKubectl();
let kubeconfig = '';

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const opts = { client: c.client, informers: c.informers, onError: (e: unknown) => c.errors.push(e) };
  const rs = new ReplicaSetController(opts);
  const dc = new DeploymentController(opts);
  c.start([(s) => rs.run(s), (s) => dc.run(s)]);
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  kubeconfig = join(c.server.dataDir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'c',
          cluster: {
            server: `https://127.0.0.1:${c.server.port}`,
            'certificate-authority-data': b64(c.server.pki.caCert),
          },
        },
      ],
      users: [
        {
          name: 'u',
          user: {
            'client-certificate-data': b64(c.server.pki.adminCert),
            'client-key-data': b64(c.server.pki.adminKey),
          },
        },
      ],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u', namespace: ns } }],
      'current-context': 'c',
    }),
  );
});

after(async () => {
  await c.stop();
});

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      kubectlBin!,
      args,
      {
        env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(c.server.dataDir, '.kube-cache') },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }),
    );
  });
}

function deployment(name: string, replicas: number, image: string, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container(image)] } },
      ...extra,
    },
  };
}

const metaOf = (o: JsonObject): JsonObject => o['metadata'] as JsonObject;
const specOf = (o: JsonObject): JsonObject => o['spec'] as JsonObject;
const statusOf = (o: JsonObject): JsonObject => (o['status'] ?? {}) as JsonObject;
const ann = (o: JsonObject): Record<string, string> =>
  (metaOf(o)['annotations'] ?? {}) as Record<string, string>;
const cond = (o: JsonObject, type: string): JsonObject | undefined =>
  ((statusOf(o)['conditions'] ?? []) as JsonObject[]).find((x) => x['type'] === type);

async function getD(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${dPath}/${name}`);
}

async function replicaSetsOf(name: string): Promise<JsonObject[]> {
  return items(await c.client.request('GET', `${rsPath}?labelSelector=app%3D${name}`));
}

async function patchD(name: string, body: JsonObject): Promise<void> {
  await c.client.request('PATCH', `${dPath}/${name}`, { body, contentType: 'application/merge-patch+json' });
}

async function setImage(name: string, image: string): Promise<void> {
  await patchD(name, { spec: { template: { spec: { containers: [container(image)] } } } });
}

/** Marks pods ready until the Deployment reports a complete rollout. */
async function completeRollout(name: string): Promise<JsonObject> {
  return waitFor(
    `rollout of ${name}`,
    async () => {
      await readyAll(c.client, ns, `app=${name}`);
      const d = await getD(name);
      const s = statusOf(d);
      const replicas = specOf(d)['replicas'] as number;
      const done =
        s['observedGeneration'] === metaOf(d)['generation'] &&
        s['updatedReplicas'] === replicas &&
        s['replicas'] === replicas &&
        s['availableReplicas'] === replicas &&
        cond(d, 'Progressing')?.['reason'] === 'NewReplicaSetAvailable';
      return done ? d : undefined;
    },
    30_000,
  );
}

test('a Deployment gets a ReplicaSet <name>-<pod-template-hash> with revision annotations, pods and conditions', async () => {
  const created = await c.client.request('POST', dPath, { body: deployment('web', 3, 'nginx:1.24') });
  const rs = await waitFor('the ReplicaSet', async () => (await replicaSetsOf('web'))[0]);
  const hash = computeHash(specOf(created)['template'] as JsonObject);
  assert.equal(metaOf(rs)['name'], `web-${hash}`);
  assert.deepEqual(metaOf(rs)['labels'], { app: 'web', 'pod-template-hash': hash });
  assert.deepEqual(specOf(rs)['selector'], { matchLabels: { app: 'web', 'pod-template-hash': hash } });
  assert.deepEqual(((specOf(rs)['template'] as JsonObject)['metadata'] as JsonObject)['labels'], {
    app: 'web',
    'pod-template-hash': hash,
  });
  assert.equal(ann(rs)['deployment.kubernetes.io/revision'], '1');
  assert.equal(ann(rs)['deployment.kubernetes.io/desired-replicas'], '3');
  // maxSurge 25% of 3 rounds up to 1.
  assert.equal(ann(rs)['deployment.kubernetes.io/max-replicas'], '4');
  const ref = (metaOf(rs)['ownerReferences'] as JsonObject[])[0]!;
  assert.equal(ref['kind'], 'Deployment');
  assert.equal(ref['uid'], metaOf(created)['uid']);
  await waitFor(
    '3 pods with the hash label',
    async () => (await activePods(c.client, ns, `pod-template-hash=${hash}`)).length === 3,
  );
  const progressing = await waitFor('NewReplicaSetCreated or progressing', async () =>
    cond(await getD('web'), 'Progressing'),
  );
  assert.equal(progressing['status'], 'True');
  const d = await completeRollout('web');
  assert.equal(ann(d)['deployment.kubernetes.io/revision'], '1');
  assert.deepEqual(
    { ...statusOf(d), conditions: undefined },
    {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: undefined,
    },
  );
  const available = cond(d, 'Available')!;
  assert.equal(available['status'], 'True');
  assert.equal(available['reason'], 'MinimumReplicasAvailable');
  assert.equal(available['message'], 'Deployment has minimum availability.');
  const p = cond(d, 'Progressing')!;
  assert.equal(p['message'], `ReplicaSet "web-${hash}" has successfully progressed.`);
});

test('rolling update keeps maxSurge and maxUnavailable at every step', async () => {
  const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } };
  await c.client.request('POST', dPath, { body: deployment('roll', 4, 'nginx:1', { strategy }) });
  await completeRollout('roll');
  // Every ReplicaSet write is seen in order through a watch, so the surge is observed however
  // briefly it lasts (polling could miss it between two reads).
  const listed = await c.client.request('GET', `${rsPath}?labelSelector=app%3Droll`);
  const rv = (listed['metadata'] as { resourceVersion: string }).resourceVersion;
  const replicasOf = new Map<string, number>();
  for (const rs of items(listed))
    replicasOf.set(metaOf(rs)['name'] as string, specOf(rs)['replicas'] as number);
  let watchedMax = 0;
  const abort = new AbortController();
  const watching = (async () => {
    try {
      for await (const ev of c.client.watch(
        `${rsPath}?watch=1&labelSelector=app%3Droll&resourceVersion=${rv}`,
        abort.signal,
      )) {
        const rs = ev.object;
        const name = metaOf(rs)['name'] as string;
        if (ev.type === 'DELETED') replicasOf.delete(name);
        else replicasOf.set(name, specOf(rs)['replicas'] as number);
        watchedMax = Math.max(
          watchedMax,
          [...replicasOf.values()].reduce((n, r) => n + r, 0),
        );
      }
    } catch {
      // aborted
    }
  })();
  await setImage('roll', 'nginx:2');
  let steps = 0;
  let maxTotal = 0;
  let minReady = Infinity;
  await waitFor(
    'rolled out',
    async () => {
      const rss = await replicaSetsOf('roll');
      const total = rss.reduce((n, rs) => n + (specOf(rs)['replicas'] as number), 0);
      const pods = await activePods(c.client, ns, 'app=roll');
      const ready = pods.filter((p) =>
        ((statusOf(p)['conditions'] ?? []) as JsonObject[]).some(
          (x) => x['type'] === 'Ready' && x['status'] === 'True',
        ),
      ).length;
      maxTotal = Math.max(maxTotal, total);
      minReady = Math.min(minReady, ready);
      assert.ok(total <= 5, `ReplicaSets ask for ${total} pods, more than replicas + maxSurge`);
      assert.ok(ready >= 3, `only ${ready} ready pods, fewer than replicas - maxUnavailable`);
      // Make one new pod ready per step.
      const d = await getD('roll');
      const newHash = computeHash(specOf(d)['template'] as JsonObject);
      const pending = (await activePods(c.client, ns, `pod-template-hash=${newHash}`)).find(
        (p) =>
          !((statusOf(p)['conditions'] ?? []) as JsonObject[]).some(
            (x) => x['type'] === 'Ready' && x['status'] === 'True',
          ),
      );
      if (pending !== undefined) {
        await setPodReady(c.client, pending);
        steps++;
      }
      const s = statusOf(d);
      return (
        s['updatedReplicas'] === 4 && s['availableReplicas'] === 4 && s['replicas'] === 4 && rss.length === 2
      );
    },
    60_000,
  );
  abort.abort();
  await watching;
  assert.ok(steps >= 2, 'the rollout took several steps');
  assert.ok(maxTotal <= 5, 'never more than replicas + maxSurge');
  assert.equal(watchedMax, 5, 'it surged');
  const rss = await replicaSetsOf('roll');
  const revisions = rss
    .map((rs) => [ann(rs)['deployment.kubernetes.io/revision'], specOf(rs)['replicas']])
    .sort();
  assert.deepEqual(revisions, [
    ['1', 0],
    ['2', 4],
  ]);
  assert.equal(ann(await getD('roll'))['deployment.kubernetes.io/revision'], '2');
});

test('Recreate scales the old ReplicaSet to zero before the new one gets pods', async () => {
  await c.client.request('POST', dPath, {
    body: deployment('rec', 2, 'nginx:1', { strategy: { type: 'Recreate' } }),
  });
  const first = await completeRollout('rec');
  const oldHash = computeHash(specOf(first)['template'] as JsonObject);
  await setImage('rec', 'nginx:2');
  await waitFor(
    'recreated',
    async () => {
      const oldPods = await activePods(c.client, ns, `pod-template-hash=${oldHash}`);
      const all = await activePods(c.client, ns, 'app=rec');
      const newPods = all.length - oldPods.length;
      assert.ok(!(oldPods.length > 0 && newPods > 0), 'old and new pods at the same time');
      await readyAll(c.client, ns, 'app=rec');
      const s = statusOf(await getD('rec'));
      return s['updatedReplicas'] === 2 && s['availableReplicas'] === 2 && oldPods.length === 0;
    },
    30_000,
  );
  const rss = await replicaSetsOf('rec');
  assert.equal(rss.length, 2);
  // Recreate never surges: max-replicas equals replicas.
  for (const rs of rss) assert.equal(ann(rs)['deployment.kubernetes.io/max-replicas'], '2');
});

test('revisionHistoryLimit keeps that many old ReplicaSets', async () => {
  await c.client.request('POST', dPath, {
    body: deployment('hist', 1, 'nginx:1', { revisionHistoryLimit: 2 }),
  });
  await completeRollout('hist');
  for (const v of [2, 3, 4, 5]) {
    await setImage('hist', `nginx:${v}`);
    await completeRollout('hist');
  }
  const rss = await waitFor('cleanup', async () => {
    const r = await replicaSetsOf('hist');
    return r.length === 3 ? r : undefined;
  });
  const revisions = rss.map((rs) => Number(ann(rs)['deployment.kubernetes.io/revision'])).sort();
  assert.deepEqual(revisions, [3, 4, 5]);
  assert.equal(ann(await getD('hist'))['deployment.kubernetes.io/revision'], '5');
});

test('paused Deployments do not roll out; resuming does', async () => {
  await c.client.request('POST', dPath, { body: deployment('pause', 2, 'nginx:1') });
  await completeRollout('pause');
  await patchD('pause', { spec: { paused: true } });
  await waitFor('DeploymentPaused', async () => {
    const p = cond(await getD('pause'), 'Progressing');
    return (
      p?.['reason'] === 'DeploymentPaused' &&
      p['status'] === 'Unknown' &&
      p['message'] === 'Deployment is paused'
    );
  });
  await setImage('pause', 'nginx:2');
  // A paused Deployment still scales.
  await patchD('pause', { spec: { replicas: 3 } });
  await waitFor(
    'scaled while paused',
    async () => (await activePods(c.client, ns, 'app=pause')).length === 3,
  );
  assert.equal((await replicaSetsOf('pause')).length, 1, 'no new ReplicaSet while paused');
  await patchD('pause', { spec: { paused: false } });
  await waitFor('a new ReplicaSet after resume', async () => (await replicaSetsOf('pause')).length === 2);
  const d = await completeRollout('pause');
  assert.equal(ann(d)['deployment.kubernetes.io/revision'], '2');
});

test('a passed progress deadline shows ProgressDeadlineExceeded, and Available is False', async () => {
  await c.client.request('POST', dPath, {
    body: deployment('stuck', 1, 'nginx:1', { progressDeadlineSeconds: 1 }),
  });
  const d = await waitFor(
    'ProgressDeadlineExceeded',
    async () => {
      const x = await getD('stuck');
      return cond(x, 'Progressing')?.['reason'] === 'ProgressDeadlineExceeded' ? x : undefined;
    },
    30_000,
  );
  const p = cond(d, 'Progressing')!;
  assert.equal(p['status'], 'False');
  assert.match(p['message'] as string, /^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/);
  const a = cond(d, 'Available')!;
  assert.equal(a['status'], 'False');
  assert.equal(a['reason'], 'MinimumReplicasUnavailable');
  assert.equal(a['message'], 'Deployment does not have minimum availability.');
});

test('scaling mid-rollout is proportional and updates the replica annotations', async () => {
  const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 0 } };
  await c.client.request('POST', dPath, { body: deployment('prop', 10, 'nginx:1', { strategy }) });
  await completeRollout('prop');
  await setImage('prop', 'nginx:2');
  // New pods never become ready: the rollout stays at old 10 + new 3.
  await waitFor('surged', async () => {
    const sizes = (await replicaSetsOf('prop')).map((rs) => specOf(rs)['replicas']).sort();
    return sizes.length === 2 && sizes[0] === 10 && sizes[1] === 3;
  });
  await patchD('prop', { spec: { replicas: 20 } });
  const rss = await waitFor('proportionally scaled', async () => {
    const r = await replicaSetsOf('prop');
    const total = r.reduce((n, rs) => n + (specOf(rs)['replicas'] as number), 0);
    return total === 23 && r.every((rs) => ann(rs)['deployment.kubernetes.io/desired-replicas'] === '20')
      ? r
      : undefined;
  });
  // 13 → 23: old 10 → 10*23/13 ≈ 18 (rounded), new 3 → 5, leftovers to the largest.
  const sizes = rss.map((rs) => specOf(rs)['replicas']).sort((a, b) => (a as number) - (b as number));
  assert.deepEqual(sizes, [5, 18]);
  for (const rs of rss) assert.equal(ann(rs)['deployment.kubernetes.io/max-replicas'], '23');
});

test(
  'kubectl 1.27: rollout status, restart, undo and history',
  { skip: kubectlBin === undefined ? 'kubectl not found' : false },
  async () => {
    await c.client.request('POST', dPath, { body: deployment('kc', 2, 'nginx:1') });
    await completeRollout('kc');
    const status = await kubectl(['rollout', 'status', 'deployment/kc', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /deployment "kc" successfully rolled out/);

    const restart = await kubectl(['rollout', 'restart', 'deployment/kc']);
    assert.equal(restart.code, 0, restart.stderr);
    const restarted = await completeRollout('kc');
    const tAnn = (((specOf(restarted)['template'] as JsonObject)['metadata'] as JsonObject)['annotations'] ??
      {}) as Record<string, string>;
    assert.ok(tAnn['kubectl.kubernetes.io/restartedAt'] !== undefined);
    assert.equal(ann(restarted)['deployment.kubernetes.io/revision'], '2');

    await setImage('kc', 'nginx:3');
    await completeRollout('kc');
    const undo = await kubectl(['rollout', 'undo', 'deployment/kc', '--to-revision=1']);
    assert.equal(undo.code, 0, undo.stderr);
    const undone = await completeRollout('kc');
    const containers = specOf(specOf(undone)['template'] as JsonObject)['containers'] as JsonObject[];
    assert.equal(containers[0]!['image'], 'nginx:1');
    // The revision-1 ReplicaSet is the new one again, as revision 4 remembering 1.
    assert.equal(ann(undone)['deployment.kubernetes.io/revision'], '4');
    const rs = (await replicaSetsOf('kc')).find((x) => ann(x)['deployment.kubernetes.io/revision'] === '4')!;
    assert.equal(ann(rs)['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(specOf(rs)['replicas'], 2);

    const history = await kubectl(['rollout', 'history', 'deployment/kc']);
    assert.equal(history.code, 0, history.stderr);
    assert.match(history.stdout, /^2 .*\n3 .*\n4 /m);

    const pause = await kubectl(['rollout', 'pause', 'deployment/kc']);
    assert.equal(pause.code, 0, pause.stderr);
    const resume = await kubectl(['rollout', 'resume', 'deployment/kc']);
    assert.equal(resume.code, 0, resume.stderr);
  },
);
