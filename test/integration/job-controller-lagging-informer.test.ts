/**
 * The Job controller when its Job informer lags the API server: after it fails a Job
 * and deletes the Job's active pods, the pod deletions can reach it before its own Failed status
 * write does. Acting on that stale copy (no Failed condition, no active pods left) it used to
 * create pods for a Job that was over (the backoffLimit flake of job-controller.test.ts). Here the
 * Job watch delivers every event 400 ms late, so that window is always open.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { JobController } from '../../src/controllers/job/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { createNamespace, finishPod, listPods, podName, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'job-lag';
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const jobWatchLagMs = 400;

before(async () => {
  c = await startCluster({
    watchDelayMs: (path) => (path.startsWith('/apis/batch/v1/jobs') ? jobWatchLagMs : 0),
  });
  await createNamespace(c.client, ns);
  const jobs = new JobController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    backoffBaseMs: 1,
    backoffMaxMs: 1,
    podUpdateBatchPeriodMs: 0,
  });
  c.start([(s) => jobs.run(s)]);
});

after(async () => {
  await c.stop();
});

const status = (o: JsonObject): JsonObject => (o['status'] ?? {}) as JsonObject;
const phase = (p: JsonObject): unknown => status(p)['phase'];
const deleting = (p: JsonObject): boolean =>
  ((p['metadata'] ?? {}) as JsonObject)['deletionTimestamp'] !== undefined;
const failedCondition = (j: JsonObject): JsonObject | undefined =>
  ((status(j)['conditions'] ?? []) as JsonObject[]).find(
    (x) => x['type'] === 'Failed' && x['status'] === 'True',
  );

test('a Job failed by backoffLimit gets no new pods while the informer still shows it running', async () => {
  await c.client.request('POST', jobsPath, {
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'lagging' },
      spec: {
        parallelism: 2,
        completions: 4,
        backoffLimit: 0,
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
        },
      },
    },
  });
  const selector = 'batch.kubernetes.io/job-name=lagging';
  const first = await waitFor('2 pods', async () => {
    const pods = await listPods(c.client, ns, selector);
    return pods.length === 2 ? pods : undefined;
  });
  await finishPod(c.client, first[0]!, 'Failed');
  const failed = await waitFor('Failed', async () => {
    const j = await c.client.request('GET', `${jobsPath}/lagging`);
    return failedCondition(j) !== undefined ? j : undefined;
  });
  assert.equal(failedCondition(failed)!['reason'], 'BackoffLimitExceeded');
  // Long enough for the pod deletions to be seen and synced against the stale Job, and for the
  // Failed status to reach the informer.
  await sleep(3 * jobWatchLagMs);
  const pods = await listPods(c.client, ns, selector);
  const names = new Set(first.map(podName));
  assert.deepEqual(
    pods.filter((p) => !names.has(podName(p))).map(podName),
    [],
    'no pod is created after the Job failed',
  );
  assert.deepEqual(
    pods.filter((p) => phase(p) !== 'Failed' && phase(p) !== 'Succeeded' && !deleting(p)).map(podName),
    [],
    'no pod of the failed Job is left running',
  );
});
