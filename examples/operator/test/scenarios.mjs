/**
 * The operator's test scenarios, written once for three test runners: each runner's file
 * (node.test.mjs, vitest.test.mjs, jest.test.mjs) calls `defineScenarios` with its own `describe`,
 * `test` and hooks. Assertions use node:assert, whose errors every runner reports as failures.
 *
 * Nothing here asserts how long something takes: what the cluster and the controller do in the
 * background is awaited with `eventually`, which polls until a generous deadline.
 */
import assert from 'node:assert/strict';
import { startCluster } from 'nanokube';
import { MANAGED_BY, REPORT, start } from '../controller.mjs';

const namespace = 'default';
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] };

function job(name) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: podSpec } },
  };
}

/** Polls `f` until it returns something other than undefined or false; errors count as "not yet". */
async function eventually(what, f, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await f();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The report's data, read through nanokube's in-process client (`{}` when it has none). */
async function reportData(cluster) {
  const cm = await cluster.client.core.v1.configMaps.get(REPORT, { namespace });
  return cm.data ?? {};
}

/** Waits until the report is exactly `expected`. */
function reportIs(cluster, expected) {
  let seen;
  return eventually(`the report to be ${JSON.stringify(expected)}`, async () => {
    seen = await reportData(cluster);
    try {
      assert.deepEqual(seen, expected);
      return true;
    } catch {
      throw new Error(`it is ${JSON.stringify(seen)}`);
    }
  });
}

async function jobNames(cluster) {
  const list = await cluster.client.batch.v1.jobs.list({ namespace });
  return list.items.map((j) => j.metadata.name).sort();
}

/** Types of the handles keeping the event loop alive (timers, sockets, servers...), counted. */
function activeResources() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

export function defineScenarios({ describe, test, beforeAll, afterAll, beforeEach }) {
  test('reports the Jobs of a fresh cluster, and stops without leaving anything open', async () => {
    const before = activeResources();
    const cluster = await startCluster();
    let controller;
    try {
      controller = await start({ kubeconfig: cluster.kubeconfig, namespace });
      // Started on an empty namespace, it writes an empty report.
      await reportIs(cluster, {});
      const cm = await cluster.client.core.v1.configMaps.get(REPORT, { namespace });
      assert.deepEqual(cm.metadata.labels, MANAGED_BY);

      await cluster.client.batch.v1.jobs.create(job('hello'), { namespace });
      await cluster.client.batch.v1.jobs.create(job('world'), { namespace });
      await reportIs(cluster, { hello: '-', world: '-' });

      await cluster.client.batch.v1.jobs.delete('hello', { namespace, propagationPolicy: 'Background' });
      await reportIs(cluster, { world: '-' });
    } finally {
      await controller?.stop();
      await cluster.stop();
    }
    // Sockets close and timers clear on the next turns of the event loop.
    await eventually('every handle the cluster and the controller opened to be released', () => {
      const extra = [...activeResources()].filter(([type, n]) => n > (before.get(type) ?? 0));
      if (extra.length > 0) throw new Error(`still open: ${extra.map(([type]) => type).join(', ')}`);
      return true;
    });
  });

  test('a manual clock fires a CronJob, and the controller reports its Job', async () => {
    const cluster = await startCluster({ clock: 'manual' });
    let controller;
    try {
      controller = await start({ kubeconfig: cluster.kubeconfig, namespace });
      await reportIs(cluster, {});
      await cluster.client.batch.v1.cronJobs.create(
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { name: 'nightly' },
          spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } },
        },
        { namespace },
      );
      // The cluster's time moves only when advanced: a minute at a time until the schedule is due
      // (at most five minutes of cluster time; the deadline is on the wall clock, for a slow machine).
      await eventually('the CronJob to create a Job', async () => {
        await cluster.clock.advance('1m');
        return (await jobNames(cluster)).length > 0;
      });
      // The clock stands still from here on: no other Job comes (on a very slow machine, the
      // loop may have gone past a second schedule: then both are reported).
      const { items } = await cluster.client.batch.v1.jobs.list({ namespace });
      for (const created of items) {
        assert.deepEqual(
          created.metadata.ownerReferences?.map((ref) => `${ref.kind}/${ref.name}`),
          ['CronJob/nightly'],
        );
      }
      await reportIs(cluster, Object.fromEntries(items.map((j) => [j.metadata.name, 'CronJob/nightly'])));
    } finally {
      await controller?.stop();
      await cluster.stop();
    }
  });

  test('a 409 Conflict on writing the report is retried', async () => {
    const cluster = await startCluster();
    let controller;
    try {
      controller = await start({ kubeconfig: cluster.kubeconfig, namespace });
      await reportIs(cluster, {});
      // The next update of the report fails as if someone had written it in between.
      const conflict = cluster.faults.inject({
        verb: 'update',
        resource: 'configmaps',
        namespace,
        name: REPORT,
        count: 1,
        status: 409,
      });
      await cluster.client.batch.v1.jobs.create(job('contended'), { namespace });
      await reportIs(cluster, { contended: '-' });
      assert.equal(conflict.hits, 1);
      assert.equal(conflict.remaining, 0);
      assert.equal(controller.stats.conflicts, 1, 'the controller read the report again and retried');
    } finally {
      await controller?.stop();
      await cluster.stop();
    }
  });

  describe('from a snapshot', () => {
    let cluster;
    let controller;
    let snapshot;

    // One cluster for the group, prepared once: a Job, reported. Each test starts from there.
    beforeAll(async () => {
      cluster = await startCluster();
      controller = await start({ kubeconfig: cluster.kubeconfig, namespace });
      await cluster.client.batch.v1.jobs.create(job('prepared'), { namespace });
      await reportIs(cluster, { prepared: '-' });
      snapshot = await cluster.snapshot();
    });
    afterAll(async () => {
      await controller?.stop();
      await cluster?.stop();
    });
    // The controller keeps running across restores: its watch ends, watching again is 410 Gone,
    // and the informer lists again, dropping from its cache what the restore took away.
    beforeEach(() => cluster.restore(snapshot));

    for (const name of ['first', 'second']) {
      test(`each test starts from the snapshot, and the controller follows (${name})`, async () => {
        // Whatever the other test made is gone, from the cluster and from the controller's cache.
        assert.deepEqual(await jobNames(cluster), ['prepared']);
        await eventually('the informer to relist', () => controller.cached().join() === 'prepared');
        await reportIs(cluster, { prepared: '-' });

        await cluster.client.batch.v1.jobs.create(job(name), { namespace });
        // Exactly these two: a stale cache would bring the other test's Job back into the report.
        await reportIs(cluster, { prepared: '-', [name]: '-' });
      });
    }
  });
}
