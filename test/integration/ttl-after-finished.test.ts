/**
 * The TTL-after-finished controller against the in-process server, on a FakeClock: a
 * finished Job is deleted (Foreground) once ttlSecondsAfterFinished has passed, not before; a Job
 * without a TTL or not finished stays.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TtlAfterFinishedController } from '../../src/controllers/ttl-after-finished/index.js';
import { FakeClock } from '../../src/util/clock.js';
import type { JsonObject } from '../../src/util/json.js';
import { createNamespace, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'ttl-test';
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const clock = new FakeClock(Date.now());

before(async () => {
  c = await startCluster();
  await createNamespace(c.client, ns);
  const ttl = new TtlAfterFinishedController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    clock,
  });
  c.start([(s) => ttl.run(s)]);
});

after(async () => {
  await c.stop();
});

const meta = (o: JsonObject): JsonObject => (o['metadata'] ?? {}) as JsonObject;

async function finishedJob(name: string, ttl: number | undefined, finished = true): Promise<void> {
  await c.client.request('POST', jobsPath, {
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    },
  });
  if (!finished) return;
  const fresh = await c.client.request('GET', `${jobsPath}/${name}`);
  const t = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  fresh['status'] = {
    startTime: t,
    completionTime: t,
    succeeded: 1,
    conditions: [{ type: 'Complete', status: 'True', lastProbeTime: t, lastTransitionTime: t }],
  };
  await c.client.request('PUT', `${jobsPath}/${name}/status`, { body: fresh });
}

/** Deleted, or being deleted in the foreground (no garbage collector runs here to finish it). */
async function goneOrForeground(name: string): Promise<boolean> {
  try {
    const j = await c.client.request('GET', `${jobsPath}/${name}`);
    return (
      meta(j)['deletionTimestamp'] !== undefined &&
      ((meta(j)['finalizers'] ?? []) as string[]).includes('foregroundDeletion')
    );
  } catch {
    return true;
  }
}

test('#7 a finished Job is deleted with Foreground propagation once the fake clock passes its TTL', async () => {
  await finishedJob('ttl-100', 100);
  await finishedJob('ttl-0', 0);
  await finishedJob('no-ttl', undefined);
  await finishedJob('running', 0, false);
  await waitFor('ttl-0 deleted at once', () => goneOrForeground('ttl-0'));
  // Not before its time: the controller is waiting on the clock.
  await waitFor('the controller waiting', () => clock.sleepers > 0);
  assert.equal(await goneOrForeground('ttl-100'), false);
  clock.advance(98_000); // not yet: the controller's delayed re-check waits on the fake clock
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await goneOrForeground('ttl-100'), false);
  clock.advance(3_000);
  await waitFor('ttl-100 deleted', () => goneOrForeground('ttl-100'));
  const j = await c.client.request('GET', `${jobsPath}/ttl-100`).catch(() => undefined);
  if (j !== undefined) assert.ok(((meta(j)['finalizers'] ?? []) as string[]).includes('foregroundDeletion'));
  assert.equal(await goneOrForeground('no-ttl'), false);
  assert.equal(await goneOrForeground('running'), false);
});
