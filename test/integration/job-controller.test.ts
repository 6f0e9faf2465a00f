/**
 * The Job controller against the in-process server: pods with the tracking finalizer,
 * NonIndexed and Indexed completion, backoffLimit, activeDeadlineSeconds (FakeClock), suspend and
 * resume, the pod failure policy, and orphaned pods released from the finalizer. Pod status is
 * written by the test, standing in for nodes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JobController, jobTrackingFinalizer } from '../../src/controllers/job/index.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import {
  createNamespace,
  finishPod as finishJobPod,
  listPods,
  podName,
  startCluster,
  waitFor,
} from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'job-test';
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const clock = new FakeClock(Date.now());

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const jobs = new JobController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    clock,
    backoffBaseMs: 1,
    backoffMaxMs: 1,
    // Time here is a FakeClock the tests move only for deadlines: pod updates sync at once.
    podUpdateBatchPeriodMs: 0,
  });
  c.start([(s) => jobs.run(s)]);
});

after(async () => {
  await c.stop();
});

function job(name: string, spec: JsonObject): JsonObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      ...spec,
    },
  };
}

async function create(j: JsonObject): Promise<JsonObject> {
  return c.client.request('POST', jobsPath, { body: j });
}

async function getJob(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${jobsPath}/${name}`);
}

const st = (j: JsonObject): JsonObject => (j['status'] ?? {}) as JsonObject;
const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;
const conditions = (j: JsonObject): JsonObject[] => (st(j)['conditions'] ?? []) as JsonObject[];
const condition = (j: JsonObject, type: string): JsonObject | undefined =>
  conditions(j).find((x) => x['type'] === type && x['status'] === 'True');

async function jobPods(name: string): Promise<JsonObject[]> {
  return listPods(c.client, ns, `batch.kubernetes.io/job-name=${name}`);
}

const running = (pods: JsonObject[]): JsonObject[] =>
  pods.filter((p) => {
    const phase = (p['status'] as JsonObject | undefined)?.['phase'];
    return phase !== 'Succeeded' && phase !== 'Failed' && meta(p)['deletionTimestamp'] === undefined;
  });

/** Writes a terminal status as a node would, at the test's clock. */
const finishPod = (pod: JsonObject, phase: 'Succeeded' | 'Failed', exitCode?: number): Promise<void> =>
  finishJobPod(c.client, pod, phase, {
    ...(exitCode !== undefined ? { exitCode } : {}),
    at: new Date(clock.now()),
  });

test('NonIndexed: parallelism pods with the tracking finalizer, counted through uncountedTerminatedPods, Complete', async () => {
  await create(job('nonindexed', { completions: 3, parallelism: 2 }));
  const pods = await waitFor('2 pods', async () => {
    const p = running(await jobPods('nonindexed'));
    return p.length === 2 ? p : undefined;
  });
  for (const p of pods) {
    assert.deepEqual(meta(p)['finalizers'], [jobTrackingFinalizer]);
    const ref = (meta(p)['ownerReferences'] as JsonObject[])[0]!;
    assert.equal(ref['kind'], 'Job');
    assert.equal(ref['controller'], true);
    assert.equal(ref['blockOwnerDeletion'], true);
    assert.match(meta(p)['generateName'] as string, /^nonindexed-$/);
    const l = meta(p)['labels'] as JsonObject;
    assert.equal(l['job-name'], 'nonindexed');
    assert.equal(l['batch.kubernetes.io/job-name'], 'nonindexed');
  }
  const j1 = await waitFor('active 2, ready 0, startTime', async () => {
    const j = await getJob('nonindexed');
    return st(j)['active'] === 2 && st(j)['ready'] === 0 && st(j)['startTime'] !== undefined ? j : undefined;
  });
  assert.deepEqual(st(j1)['uncountedTerminatedPods'], {});
  await finishPod(pods[0]!, 'Succeeded');
  // The third pod is created once one succeeded; only one more (completions - succeeded = 2 active).
  const third = await waitFor('a third pod', async () => {
    const all = await jobPods('nonindexed');
    const r = running(all).filter((p) => podName(p) !== podName(pods[1]!));
    return all.length === 3 && r.length === 1 ? r[0] : undefined;
  });
  await finishPod(pods[1]!, 'Succeeded');
  await finishPod(third, 'Succeeded');
  const done = await waitFor('Complete', async () => {
    const j = await getJob('nonindexed');
    return condition(j, 'Complete') !== undefined ? j : undefined;
  });
  assert.equal(st(done)['succeeded'], 3);
  assert.equal(st(done)['active'], undefined);
  assert.equal(st(done)['failed'], undefined);
  assert.ok(typeof st(done)['completionTime'] === 'string');
  assert.deepEqual(st(done)['uncountedTerminatedPods'], {});
  // Every pod had its finalizer removed after being counted.
  await waitFor('finalizers removed', async () =>
    (await jobPods('nonindexed')).every((p) => meta(p)['finalizers'] === undefined),
  );
  const events = await c.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
  const reasons = (events['items'] as JsonObject[])
    .filter((e) => (e['regarding'] as JsonObject)['name'] === 'nonindexed')
    .map((e) => e['reason']);
  assert.ok(reasons.includes('SuccessfulCreate'), JSON.stringify(reasons));
  await waitFor('Completed event', async () => {
    const ev = await c.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
    return (ev['items'] as JsonObject[]).some(
      (e) =>
        (e['regarding'] as JsonObject)['name'] === 'nonindexed' &&
        e['reason'] === 'Completed' &&
        e['note'] === 'Job completed',
    );
  });
});

test('Indexed: completion index annotation, hostname, JOB_COMPLETION_INDEX, completedIndexes', async () => {
  await create(job('indexed', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
  const pods = await waitFor('3 pods', async () => {
    const p = running(await jobPods('indexed'));
    return p.length === 3 ? p : undefined;
  });
  const byIndex = new Map<string, JsonObject>();
  for (const p of pods) {
    const ix = (meta(p)['annotations'] as JsonObject)['batch.kubernetes.io/job-completion-index'] as string;
    byIndex.set(ix, p);
    assert.ok((meta(p)['name'] as string).startsWith(`indexed-${ix}-`));
    const spec = p['spec'] as JsonObject;
    assert.equal(spec['hostname'], `indexed-${ix}`);
    const env = ((spec['containers'] as JsonObject[])[0]!['env'] ?? []) as JsonObject[];
    assert.deepEqual(env, [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: {
            apiVersion: 'v1',
            fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']",
          },
        },
      },
    ]);
  }
  assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
  await finishPod(byIndex.get('1')!, 'Succeeded');
  await waitFor('completedIndexes 1', async () => st(await getJob('indexed'))['completedIndexes'] === '1');
  // A failed index is retried with a new pod for the same index.
  await finishPod(byIndex.get('0')!, 'Failed');
  const retry = await waitFor('a new pod for index 0', async () => {
    const r = running(await jobPods('indexed')).filter(
      (p) => (meta(p)['annotations'] as JsonObject)['batch.kubernetes.io/job-completion-index'] === '0',
    );
    return r.length === 1 && podName(r[0]!) !== podName(byIndex.get('0')!) ? r[0] : undefined;
  });
  await finishPod(retry, 'Succeeded');
  await finishPod(byIndex.get('2')!, 'Succeeded');
  const done = await waitFor('Complete', async () => {
    const j = await getJob('indexed');
    return condition(j, 'Complete') !== undefined ? j : undefined;
  });
  assert.equal(st(done)['completedIndexes'], '0-2');
  assert.equal(st(done)['succeeded'], 3);
  assert.equal(st(done)['failed'], 1);
});

test('backoffLimit: failures beyond it fail the Job with BackoffLimitExceeded and delete active pods', async () => {
  await create(job('backoff', { parallelism: 2, completions: 4, backoffLimit: 1 }));
  const pods = await waitFor('2 pods', async () => {
    const p = running(await jobPods('backoff'));
    return p.length === 2 ? p : undefined;
  });
  await finishPod(pods[0]!, 'Failed');
  await waitFor('failed 1', async () => st(await getJob('backoff'))['failed'] === 1);
  const replacement = await waitFor('a replacement', async () => {
    const r = running(await jobPods('backoff')).filter((p) => podName(p) !== podName(pods[1]!));
    return r.length === 1 ? r[0] : undefined;
  });
  await finishPod(replacement, 'Failed');
  const failed = await waitFor('Failed', async () => {
    const j = await getJob('backoff');
    return condition(j, 'Failed') !== undefined ? j : undefined;
  });
  const cond = condition(failed, 'Failed')!;
  assert.equal(cond['reason'], 'BackoffLimitExceeded');
  assert.equal(cond['message'], 'Job has reached the specified backoff limit');
  // The pod still running when the Job failed is deleted and counted as failed, as upstream.
  assert.equal(st(failed)['failed'], 3);
  assert.equal(st(failed)['active'], undefined);
  assert.equal(st(failed)['completionTime'], undefined);
  // The still-running pod was deleted (after its finalizer was dropped), and no pod was created
  // after the Job failed (job-controller-lagging-informer.test.ts forces that window open).
  await waitFor('running pod gone', async () => running(await jobPods('backoff')).length === 0);
});

test('activeDeadlineSeconds: DeadlineExceeded once the clock passes it', async () => {
  await create(job('deadline', { parallelism: 1, activeDeadlineSeconds: 30 }));
  await waitFor('1 pod', async () => running(await jobPods('deadline')).length === 1);
  await waitFor('active 1', async () => st(await getJob('deadline'))['active'] === 1);
  clock.advance(31_000);
  const failed = await waitFor('Failed', async () => {
    const j = await getJob('deadline');
    return condition(j, 'Failed') !== undefined ? j : undefined;
  });
  assert.equal(condition(failed, 'Failed')!['reason'], 'DeadlineExceeded');
  assert.equal(condition(failed, 'Failed')!['message'], 'Job was active longer than specified deadline');
  await waitFor('pod deleted', async () => running(await jobPods('deadline')).length === 0);
});

test('suspend: no pods and Suspended=True; resume creates them, Suspended=False (JobResumed)', async () => {
  await create(job('suspended', { parallelism: 2, completions: 2, suspend: true }));
  const j = await waitFor('Suspended', async () => {
    const x = await getJob('suspended');
    return condition(x, 'Suspended') !== undefined ? x : undefined;
  });
  assert.equal(condition(j, 'Suspended')!['reason'], 'JobSuspended');
  assert.equal(st(j)['startTime'], undefined);
  assert.equal((await jobPods('suspended')).length, 0);
  await c.client.request('PATCH', `${jobsPath}/suspended`, {
    body: { spec: { suspend: false } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('2 pods', async () => running(await jobPods('suspended')).length === 2);
  const resumed = await waitFor('Suspended=False', async () => {
    const x = await getJob('suspended');
    const s = conditions(x).find((cd) => cd['type'] === 'Suspended');
    return s?.['status'] === 'False' ? x : undefined;
  });
  const s = conditions(resumed).find((cd) => cd['type'] === 'Suspended')!;
  assert.equal(s['reason'], 'JobResumed');
  assert.ok(st(resumed)['startTime'] !== undefined);
  // Suspending again deletes the active pods.
  await c.client.request('PATCH', `${jobsPath}/suspended`, {
    body: { spec: { suspend: true } },
    contentType: 'application/merge-patch+json',
  });
  await waitFor('pods deleted', async () => running(await jobPods('suspended')).length === 0);
  await waitFor('active 0', async () => st(await getJob('suspended'))['active'] === undefined);
});

test('pod failure policy: Ignore does not count; FailJob fails via FailureTarget with reason PodFailurePolicy', async () => {
  await create(
    job('pfp', {
      parallelism: 1,
      completions: 2,
      backoffLimit: 6,
      podFailurePolicy: {
        rules: [
          { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
          { action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } },
        ],
      },
    }),
  );
  const first = await waitFor('1 pod', async () => {
    const r = running(await jobPods('pfp'));
    return r.length === 1 ? r[0] : undefined;
  });
  await finishPod(first, 'Failed', 7);
  const second = await waitFor('a replacement', async () => {
    const r = running(await jobPods('pfp'));
    return r.length === 1 && podName(r[0]!) !== podName(first) ? r[0] : undefined;
  });
  assert.equal(st(await getJob('pfp'))['failed'], undefined);
  await finishPod(second, 'Failed', 42);
  const failed = await waitFor('Failed', async () => {
    const j = await getJob('pfp');
    return condition(j, 'Failed') !== undefined ? j : undefined;
  });
  const target = condition(failed, 'FailureTarget');
  assert.ok(target !== undefined);
  const cond = condition(failed, 'Failed')!;
  assert.equal(cond['reason'], 'PodFailurePolicy');
  assert.equal(
    cond['message'],
    `Container main for pod ${ns}/${podName(second)} failed with exit code 42 matching FailJob rule at index 0`,
  );
  assert.equal(st(failed)['failed'], 1);
});

test('orphaned pods: the tracking finalizer is removed once their Job is gone', async () => {
  await create(job('orphans', { parallelism: 2, completions: 2 }));
  await waitFor('2 pods', async () => running(await jobPods('orphans')).length === 2);
  // Delete the Job leaving its pods (no garbage collector runs here).
  await c.client.request('DELETE', `${jobsPath}/orphans`, { body: { propagationPolicy: 'Orphan' } });
  await waitFor('finalizers removed from orphaned pods', async () => {
    const p = await jobPods('orphans');
    return (
      p.length === 2 &&
      p.every((x) => !((meta(x)['finalizers'] ?? []) as string[]).includes(jobTrackingFinalizer))
    );
  });
});
