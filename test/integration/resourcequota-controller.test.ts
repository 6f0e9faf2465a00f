/**
 * Integration: the resource quota controller keeps status.hard and status.used current
 * as upstream's does — object counts (legacy names and count/<resource>.<group>), pod compute
 * requests/limits (terminal pods excluded), PVC storage, and quota scopes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SharedInformerFactory } from '../../src/client/informer-factory.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { ResourceQuotaController } from '../../src/controllers/resourcequota/controller.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

/** The same map with its keys in order (status lists print sorted, as Go's maps marshal). */
const sorted = (m: Record<string, string>): [string, string][] =>
  Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Polls `get` until `ok` holds for its value, and returns that value. */
const until = <T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> =>
  waitFor(what, async () => {
    const v = await get();
    return ok(v) ? v : undefined;
  });

const pod = (
  name: string,
  requests: Record<string, string>,
  limits: Record<string, string> = {},
): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'x', resources: { requests, limits } }] },
});

describe('resource quota controller', () => {
  let s: TestServer;
  let client: RestClient;
  const abort = new AbortController();
  let running: Promise<void>;
  let informers: SharedInformerFactory;
  before(async () => {
    s = await startTestServer({ controllers: false });
    client = adminClient(s);
    informers = new SharedInformerFactory({ client });
    const c = new ResourceQuotaController({ client, informers });
    informers.start(abort.signal);
    running = c.run(abort.signal);
    await client.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rq' } },
    });
  });
  after(async () => {
    abort.abort();
    await running;
    await informers.stopped();
    client.close();
    await s.stop();
  });

  const used = async (name: string, ns = 'rq'): Promise<Record<string, string>> => {
    const q = await client.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`);
    return ((q['status'] as JsonObject | undefined)?.['used'] ?? {}) as Record<string, string>;
  };

  it('counts objects and pod compute; terminal pods stop counting', async () => {
    await client.request('POST', '/api/v1/namespaces/rq/resourcequotas', {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'all' },
        spec: {
          hard: {
            pods: '10',
            'requests.cpu': '2',
            'limits.memory': '2Gi',
            memory: '4Gi',
            'count/configmaps': '5',
            services: '3',
            'requests.storage': '10Gi',
            'count/deployments.apps': '2',
          },
        },
      },
    });
    // Admission refuses writes a quota covers until the controller has computed its usage.
    await until(
      () => used('all'),
      (u) => Object.keys(u).length === 8,
      'the first usage',
    );
    await client.request('POST', '/api/v1/namespaces/rq/pods', {
      body: pod('a', { cpu: '250m', memory: '64Mi' }, { memory: '128Mi' }),
    });
    await client.request('POST', '/api/v1/namespaces/rq/pods', {
      body: pod('b', { cpu: '500m', memory: '64Mi' }, { memory: '128Mi' }),
    });
    await client.request('POST', '/api/v1/namespaces/rq/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } },
    });
    await client.request('POST', '/api/v1/namespaces/rq/persistentvolumeclaims', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    });
    const want = {
      pods: '2',
      'requests.cpu': '750m',
      'limits.memory': '256Mi',
      memory: '128Mi',
      'count/configmaps': '1',
      services: '0',
      'requests.storage': '1Gi',
      'count/deployments.apps': '0',
    };
    await until(
      () => used('all'),
      (u) => JSON.stringify(sorted(u)) === JSON.stringify(sorted(want)),
      'usage',
    ).catch(async (err: unknown) => {
      throw new Error(`${String(err)}: ${JSON.stringify(await used('all'))}`);
    });
    const q = await client.request('GET', '/api/v1/namespaces/rq/resourcequotas/all');
    assert.deepEqual((q['status'] as JsonObject)['hard'], {
      pods: '10',
      'requests.cpu': '2',
      'limits.memory': '2Gi',
      memory: '4Gi',
      'count/configmaps': '5',
      services: '3',
      'requests.storage': '10Gi',
      'count/deployments.apps': '2',
    });
    // A pod that finished no longer counts.
    const b = await client.request('GET', '/api/v1/namespaces/rq/pods/b');
    await client.request('PUT', '/api/v1/namespaces/rq/pods/b/status', {
      body: { ...b, status: { ...(b['status'] as JsonObject), phase: 'Succeeded' } },
    });
    await until(
      () => used('all'),
      (u) => u['pods'] === '1' && u['requests.cpu'] === '250m',
      'pod b to stop counting',
    );
  });

  it('a BestEffort-scoped quota counts only BestEffort pods', async () => {
    // A namespace of its own: the quota above would refuse a pod without requests.
    await client.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rq-be' } },
    });
    await client.request('POST', '/api/v1/namespaces/rq-be/resourcequotas', {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'be' },
        spec: { hard: { pods: '5' }, scopes: ['BestEffort'] },
      },
    });
    await until(
      () => used('be', 'rq-be'),
      (u) => u['pods'] === '0',
      'the first usage',
    );
    await client.request('POST', '/api/v1/namespaces/rq-be/pods', { body: pod('besteffort', {}) });
    await client.request('POST', '/api/v1/namespaces/rq-be/pods', {
      body: pod('burstable', { cpu: '100m' }),
    });
    await until(
      () => used('be', 'rq-be'),
      (u) => u['pods'] === '1',
      'the BestEffort pod alone',
    );
  });
});
