/**
 * The Job controller's MaxUncountedPods (upstream v1.27 trackJobStatusAndRemoveFinalizers):
 * pods that finished while no controller ran are recorded in status.uncountedTerminatedPods at
 * most `maxUncountedPods` at a time, their finalizers removed and counted over several syncs, and
 * the Job completes only once every one is counted. Pod status is written by the test.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JobController, jobTrackingFinalizer } from '../../src/controllers/job/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { createNamespace, finishPod, listPods, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'job-uncounted';
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const first = new AbortController();

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const jobs = new JobController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    recordEvents: false,
  });
  c.start([
    (s) => {
      s.addEventListener('abort', () => first.abort(), { once: true });
      return jobs.run(first.signal);
    },
  ]);
});

after(async () => {
  first.abort();
  await c.stop();
});

const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;
const st = (j: JsonObject): JsonObject => (j['status'] ?? {}) as JsonObject;

const succeed = (pod: JsonObject): Promise<void> => finishPod(c.client, pod, 'Succeeded');

test('#7: at most maxUncountedPods finished pods are recorded per sync; all are counted in the end', async () => {
  await c.client.request('POST', jobsPath, {
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'many' },
      spec: {
        completions: 5,
        parallelism: 5,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      },
    },
  });
  const pods = await waitFor('5 pods', async () => {
    const p = await listPods(c.client, ns, 'batch.kubernetes.io/job-name=many');
    return p.length === 5 ? p : undefined;
  });
  // The controller stops; every pod finishes meanwhile.
  first.abort();
  await new Promise((r) => setTimeout(r, 100));
  for (const p of pods) await succeed(p);

  const seen: number[] = [];
  const reg = c.informers.informerFor(jobsPath.replace(`/namespaces/${ns}`, '')).addEventHandler({
    onUpdate: (_old, j) => {
      if (meta(j)['name'] !== 'many') return;
      const u = (st(j)['uncountedTerminatedPods'] ?? {}) as JsonObject;
      seen.push(((u['succeeded'] ?? []) as unknown[]).length + ((u['failed'] ?? []) as unknown[]).length);
    },
  });
  const second = new AbortController();
  const jobs = new JobController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    recordEvents: false,
    maxUncountedPods: 2,
  });
  const running = jobs.run(second.signal);
  try {
    const done = await waitFor(
      'Complete',
      async () => {
        const j = await c.client.request('GET', `${jobsPath}/many`);
        const complete = ((st(j)['conditions'] ?? []) as JsonObject[]).some(
          (x) => x['type'] === 'Complete' && x['status'] === 'True',
        );
        return complete ? j : undefined;
      },
      30_000,
    );
    assert.equal(st(done)['succeeded'], 5);
    assert.deepEqual(st(done)['uncountedTerminatedPods'], {});
    assert.ok(seen.length > 0);
    assert.ok(Math.max(...seen) <= 2, `uncounted pods per status write: ${seen.join(',')}`);
    for (const p of await listPods(c.client, ns, 'batch.kubernetes.io/job-name=many')) {
      assert.ok(!((meta(p)['finalizers'] ?? []) as string[]).includes(jobTrackingFinalizer));
    }
  } finally {
    reg.remove();
    second.abort();
    await running;
  }
  assert.deepEqual(c.errors.map(String), []);
});
