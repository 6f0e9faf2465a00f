/**
 * The resource quota controller when its Pod informer lags the API server: quota admission
 * charges status.used as it admits each Pod, before the Pod reaches the controller. A sync in that
 * window counts fewer Pods than were charged; writing that lower usage handed the charge back and
 * let admission take more than `hard` (a flake of the burst test in admission-builtin.test.ts).
 * Here the Pod watch delivers every event 1.5 s late and the controller resyncs every 100 ms, so
 * the window is always open: a lowering must be counted again from the server.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import { ResourceQuotaController } from '../../src/controllers/resourcequota/controller.js';
import type { JsonObject } from '../../src/util/json.js';
import { createNamespace, startCluster, waitFor } from './workload-harness.js';
import type { Cluster } from './workload-harness.js';

let c: Cluster;
const ns = 'quota-lag';
const podWatchLagMs = 1500;

before(async () => {
  c = await startCluster({
    watchDelayMs: (path) => (path.startsWith('/api/v1/pods') ? podWatchLagMs : 0),
  });
  await createNamespace(c.client, ns);
  const quotas = new ResourceQuotaController({
    client: c.client,
    informers: c.informers,
    onError: (e) => c.errors.push(e),
    resyncPeriodMs: 100,
  });
  c.start([(s) => quotas.run(s)]);
});

after(async () => {
  await c.stop();
});

const pod = (name: string): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'x' }] },
});

const used = async (): Promise<string | undefined> => {
  const q = await c.client.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/ten`);
  return (((q['status'] ?? {}) as JsonObject)['used'] as JsonObject | undefined)?.['pods'] as
    string | undefined;
};

test('a sync from a lagging Pod informer does not hand back what admission charged', async () => {
  await c.client.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
    body: {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'ten' },
      spec: { hard: { pods: '10' } },
    },
  });
  await waitFor('status.used', async () => (await used()) === '0');

  const create = async (name: string): Promise<number> => {
    try {
      await c.client.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: pod(name) });
      return 201;
    } catch (err) {
      if (err instanceof ApiError) return err.code;
      throw err;
    }
  };
  const first = await Promise.all(Array.from({ length: 6 }, (_, i) => create(`first-${i}`)));
  assert.deepEqual(first, Array<number>(6).fill(201));
  // Several resyncs while the informer has seen none of the six.
  await sleep(600);
  assert.equal(await used(), '6', 'the controller handed back usage its informer had not seen yet');
  const second = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`second-${i}`)));
  assert.equal(second.filter((s) => s === 201).length, 4, second.join(','));
  assert.equal(second.filter((s) => s === 403).length, 6, second.join(','));
  // Once the informer caught up, the controller agrees with admission.
  await sleep(podWatchLagMs + 500);
  assert.equal(await used(), '10');
  const pods = await c.client.request('GET', `/api/v1/namespaces/${ns}/pods`);
  assert.equal((pods['items'] as JsonObject[]).length, 10);
});
