/**
 * Integration: LimitRanger on an in-process server over SQLite — a namespace's
 * LimitRange defaults a pod's container resources (and says so in the `kubernetes.io/limit-ranger`
 * annotation), refuses pods outside the Container min and max with upstream's 403 texts (several
 * violations bracketed), and refuses PersistentVolumeClaims outside the PersistentVolumeClaim
 * min and max.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const pod = (name: string, resources?: JsonObject): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources !== undefined ? { resources } : {}) }] },
});

const claim = (name: string, storage: string): JsonObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: '', resources: { requests: { storage } } },
});

const forbidden = (kind: string, name: string, message: string): JsonObject => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `${kind} "${name}" is forbidden: ${message}`,
  reason: 'Forbidden',
  details: { name, kind },
  code: 403,
});

describe('LimitRanger', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, nodes: 0, admission: { disable: ['ServiceAccount'] } });
    const ns = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'limits' } },
    });
    assert.equal(ns.status, 201, ns.text);
    const lr = await s.request('POST', '/api/v1/namespaces/limits/limitranges', {
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'bounds' },
        spec: {
          limits: [
            {
              type: 'Container',
              min: { cpu: '100m', memory: '32Mi' },
              max: { cpu: '1', memory: '1Gi' },
              default: { cpu: '500m', memory: '256Mi' },
              defaultRequest: { cpu: '200m', memory: '64Mi' },
            },
            { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '5Gi' } },
          ],
        },
      },
    });
    assert.equal(lr.status, 201, lr.text);
    // LimitRanges are read from the watch cache, a moment behind the write: probe with a dry run.
    await waitFor(
      'the LimitRange to reach the cache',
      async () =>
        (
          await s.request('POST', '/api/v1/namespaces/limits/pods?dryRun=All', {
            body: pod('probe', { limits: { cpu: '2' } }),
          })
        ).status === 403,
    );
  });
  after(async () => {
    await s.stop();
  });

  const createPod = (body: JsonObject) => s.request('POST', '/api/v1/namespaces/limits/pods', { body });

  it('a pod without resources gets the defaults, and the annotation saying so', async () => {
    const r = await createPod(pod('defaulted'));
    assert.equal(r.status, 201, r.text);
    const stored = (await s.request('GET', '/api/v1/namespaces/limits/pods/defaulted')).json<{
      metadata: { annotations: Record<string, string> };
      spec: { containers: { resources: JsonObject }[] };
    }>();
    assert.deepEqual(stored.spec.containers[0]!.resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '200m', memory: '64Mi' },
    });
    assert.equal(
      stored.metadata.annotations['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c',
    );
  });

  it('a pod within min and max is admitted as it is', async () => {
    const resources = {
      requests: { cpu: '250m', memory: '128Mi' },
      limits: { cpu: '750m', memory: '512Mi' },
    };
    const r = await createPod(pod('within', resources));
    assert.equal(r.status, 201, r.text);
    const stored = (await s.request('GET', '/api/v1/namespaces/limits/pods/within')).json<{
      metadata: { annotations?: Record<string, string> };
      spec: { containers: { resources: JsonObject }[] };
    }>();
    assert.deepEqual(stored.spec.containers[0]!.resources, resources);
    assert.equal(stored.metadata.annotations?.['kubernetes.io/limit-ranger'], undefined);
  });

  it('a pod above max or below min is refused in upstream’s words', async () => {
    // A limit alone: the request defaults to it (v1 defaulting), so only the max is crossed.
    const big = await createPod(pod('big', { limits: { cpu: '2' } }));
    assert.equal(big.status, 403, big.text);
    assert.deepEqual(
      big.json(),
      forbidden('pods', 'big', 'maximum cpu usage per Container is 1, but limit is 2'),
    );
    const small = await createPod(pod('small', { requests: { cpu: '50m' } }));
    assert.equal(small.status, 403, small.text);
    assert.deepEqual(
      small.json(),
      forbidden('pods', 'small', 'minimum cpu usage per Container is 100m, but request is 50m'),
    );
    const both = await createPod(pod('both', { requests: { memory: '16Mi' }, limits: { cpu: '2' } }));
    assert.equal(both.status, 403, both.text);
    assert.deepEqual(
      both.json(),
      forbidden(
        'pods',
        'both',
        '[minimum memory usage per Container is 32Mi, but request is 16Mi, maximum cpu usage per Container is 1, but limit is 2]',
      ),
    );
    assert.equal((await s.request('GET', '/api/v1/namespaces/limits/pods/big')).status, 404);
  });

  it('pods in other namespaces are not limited', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/pods', {
      body: pod('free', { limits: { cpu: '8' } }),
    });
    assert.equal(r.status, 201, r.text);
  });

  it('PersistentVolumeClaim min and max bound the requested storage', async () => {
    const claims = '/api/v1/namespaces/limits/persistentvolumeclaims';
    const small = await s.request('POST', claims, { body: claim('small', '500Mi') });
    assert.equal(small.status, 403, small.text);
    assert.deepEqual(
      small.json(),
      forbidden(
        'persistentvolumeclaims',
        'small',
        'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
      ),
    );
    const big = await s.request('POST', claims, { body: claim('big', '10Gi') });
    assert.equal(big.status, 403, big.text);
    assert.deepEqual(
      big.json(),
      forbidden(
        'persistentvolumeclaims',
        'big',
        'maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi',
      ),
    );
    const ok = await s.request('POST', claims, { body: claim('fits', '2Gi') });
    assert.equal(ok.status, 201, ok.text);
    // Claims are not defaulted: the stored request is the one sent.
    const stored = (await s.request('GET', `${claims}/fits`)).json<{
      spec: { resources: JsonObject };
    }>();
    assert.deepEqual(stored.spec.resources, { requests: { storage: '2Gi' } });
  });
});
