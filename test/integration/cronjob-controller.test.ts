/**
 * The CronJob controller (AM-10) against the in-process server, on a FakeClock: a
 * `*\/1 * * * *` CronJob fires when the clock passes the minute, its Job is named
 * `<cronjob>-<minutes>`, status.active/lastScheduleTime/lastSuccessfulTime follow, Forbid and
 * Replace, history limits, and an unknown timeZone is reported.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CronJobController } from '../../src/controllers/cronjob/index.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { createNamespace, items, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'cronjob-test';
const cjPath = `/apis/batch/v1/namespaces/${ns}/cronjobs`;
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const clock = new FakeClock(Date.now());

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const cj = new CronJobController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    clock,
    timeZone: 'UTC',
  });
  c.start([(s) => cj.run(s)]);
});

after(async () => {
  await c.stop();
});

const st = (o: JsonObject): JsonObject => (o['status'] ?? {}) as JsonObject;
const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;

function cronJob(name: string, spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: {
        metadata: { labels: { from: name } },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
      ...spec,
    },
  };
}

/** Moves the fake clock just past the next minute after both the real and the fake now. */
function nextMinute(): number {
  const base = Math.max(Date.now(), clock.now());
  const at = Math.floor(base / 60_000) * 60_000 + 60_000;
  clock.advance(at + 1000 - clock.now());
  return at;
}

async function ownedJobs(cj: string): Promise<JsonObject[]> {
  return items(await c.client.request('GET', `${jobsPath}?labelSelector=from%3D${cj}`));
}

async function getCJ(name: string): Promise<JsonObject> {
  return c.client.request('GET', `${cjPath}/${name}`);
}

async function complete(job: JsonObject, type: 'Complete' | 'Failed' = 'Complete'): Promise<void> {
  const path = `${jobsPath}/${meta(job)['name'] as string}/status`;
  const fresh = await c.client.request('GET', `${jobsPath}/${meta(job)['name'] as string}`);
  const t = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  fresh['status'] = {
    startTime: t,
    ...(type === 'Complete' ? { completionTime: t, succeeded: 1 } : { failed: 1 }),
    conditions: [{ type, status: 'True', lastProbeTime: t, lastTransitionTime: t }],
  };
  await c.client.request('PUT', path, { body: fresh });
}

async function eventReasons(name: string): Promise<string[]> {
  const ev = items(await c.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`));
  return ev.filter((e) => (e['regarding'] as JsonObject)['name'] === name).map((e) => e['reason'] as string);
}

test('a */1 CronJob fires when the clock passes the minute; status and lastSuccessfulTime follow', async () => {
  await c.client.request('POST', cjPath, { body: cronJob('every-minute') });
  await waitFor(
    'the CronJob in the controller',
    async () => (await eventReasons('every-minute')).length >= 0,
  );
  const at = nextMinute();
  const job = await waitFor('a Job', async () => {
    const j = await ownedJobs('every-minute');
    return j.length === 1 ? j[0] : undefined;
  });
  assert.equal(meta(job)['name'], `every-minute-${Math.floor(at / 60_000)}`);
  const ref = (meta(job)['ownerReferences'] as JsonObject[])[0]!;
  assert.equal(ref['kind'], 'CronJob');
  assert.equal(ref['controller'], true);
  const cj = await waitFor('status.active', async () => {
    const x = await getCJ('every-minute');
    return Array.isArray(st(x)['active']) ? x : undefined;
  });
  assert.equal((st(cj)['active'] as JsonObject[])[0]!['name'], meta(job)['name']);
  assert.equal(st(cj)['lastScheduleTime'], new Date(at).toISOString().replace('.000Z', 'Z'));
  await waitFor('SuccessfulCreate event', async () =>
    (await eventReasons('every-minute')).includes('SuccessfulCreate'),
  );
  await complete(job);
  const done = await waitFor('active cleared and lastSuccessfulTime', async () => {
    const x = await getCJ('every-minute');
    return st(x)['active'] === undefined && st(x)['lastSuccessfulTime'] !== undefined ? x : undefined;
  });
  assert.ok(done);
  await waitFor('SawCompletedJob event', async () =>
    (await eventReasons('every-minute')).includes('SawCompletedJob'),
  );
  await c.client.request('DELETE', `${cjPath}/every-minute`);
});

test('Forbid skips while a Job is active; Replace deletes it and starts the next', async () => {
  await c.client.request('POST', cjPath, { body: cronJob('forbid', { concurrencyPolicy: 'Forbid' }) });
  await c.client.request('POST', cjPath, { body: cronJob('replace', { concurrencyPolicy: 'Replace' }) });
  await new Promise((r) => setTimeout(r, 200));
  nextMinute();
  const first = await waitFor('first Jobs', async () => {
    const f = await ownedJobs('forbid');
    const r = await ownedJobs('replace');
    return f.length === 1 && r.length === 1 ? { f: f[0]!, r: r[0]! } : undefined;
  });
  await waitFor(
    'both active',
    async () =>
      Array.isArray(st(await getCJ('forbid'))['active']) &&
      Array.isArray(st(await getCJ('replace'))['active']),
  );
  nextMinute();
  await waitFor('JobAlreadyActive', async () => (await eventReasons('forbid')).includes('JobAlreadyActive'));
  assert.equal((await ownedJobs('forbid')).length, 1);
  const replaced = await waitFor('a new replace Job, the old one deleted', async () => {
    const r = await ownedJobs('replace');
    const live = r.filter((j) => meta(j)['deletionTimestamp'] === undefined);
    return live.length === 1 && meta(live[0]!)['name'] !== meta(first.r)['name'] ? live[0] : undefined;
  });
  assert.ok(replaced);
  await waitFor('SuccessfulDelete', async () => (await eventReasons('replace')).includes('SuccessfulDelete'));
  await c.client.request('DELETE', `${cjPath}/forbid`);
  await c.client.request('DELETE', `${cjPath}/replace`);
});

test('history limits keep the newest finished Jobs', async () => {
  await c.client.request('POST', cjPath, {
    body: cronJob('history', { successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 0 }),
  });
  await new Promise((r) => setTimeout(r, 200));
  // The fake clock may be ahead of the CronJob's creation, so it can fire at once as well.
  const names = new Set<string>();
  for (let i = 0; i < 2; i++) {
    nextMinute();
    // Under load the controller may see the CronJob only after the clock moved: move it again
    // until a Job is active (more Jobs are fine: each is completed below).
    await waitFor(
      'an active Job',
      async () => {
        if (Array.isArray(st(await getCJ('history'))['active'])) return true;
        nextMinute();
        return false;
      },
      20_000,
      1000,
    );
    for (const j of await ownedJobs('history')) {
      names.add(meta(j)['name'] as string);
      if (st(j)['conditions'] === undefined) await complete(j, 'Complete');
    }
    await waitFor('inactive', async () => st(await getCJ('history'))['active'] === undefined);
  }
  const newest = [...names].sort().pop();
  assert.ok(names.size >= 2);
  await waitFor('only the newest successful Job kept', async () => {
    const left = (await ownedJobs('history')).filter((x) => meta(x)['deletionTimestamp'] === undefined);
    return left.length === 1 && meta(left[0]!)['name'] === newest;
  });
  await c.client.request('DELETE', `${cjPath}/history`);
});

test('timeZone (AM-10): an unknown zone is reported and nothing runs; suspend runs nothing', async () => {
  await c.client
    .request('POST', cjPath, { body: cronJob('badzone', { timeZone: 'Mars/Olympus' }) })
    .catch(() => undefined);
  const created = await c.client.request('GET', `${cjPath}/badzone`).catch(() => undefined);
  if (created !== undefined) {
    await waitFor('UnknownTimeZone', async () => (await eventReasons('badzone')).includes('UnknownTimeZone'));
  }
  await c.client.request('POST', cjPath, { body: cronJob('suspended', { suspend: true }) });
  await c.client.request('POST', cjPath, { body: cronJob('tokyo', { timeZone: 'Asia/Tokyo' }) });
  await new Promise((r) => setTimeout(r, 200));
  nextMinute();
  await waitFor('the Tokyo CronJob fires', async () => (await ownedJobs('tokyo')).length === 1);
  assert.equal((await ownedJobs('suspended')).length, 0);
});
