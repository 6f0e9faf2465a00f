/**
 * Integration: the built-in admission chain on an in-process server over SQLite —
 * ServiceAccount (default account, the kube-api-access projected volume and its mounts, opt-outs,
 * a missing account), Priority (class resolution, the global default, refusals) and ResourceQuota
 * (exact refusals, and 100 parallel creates against `hard: pods=10`, twenty times).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

describe('built-in admission plugins', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ nodes: 0 });
  });
  after(async () => {
    await s.stop();
  });

  const createNamespace = async (name: string): Promise<void> => {
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    });
    assert.equal(r.status, 201, r.text);
    // The serviceaccount controller makes `default`.
    await waitFor(
      `the default service account of ${name}`,
      async () =>
        (await s.request('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200,
    );
  };

  it('ServiceAccount: the default account and the kube-api-access volume in every container', async () => {
    await createNamespace('sa');
    const r = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('p', { initContainers: [{ name: 'init', image: 'busybox' }] }),
    });
    assert.equal(r.status, 201, r.text);
    const spec = r.json<{ spec: JsonObject }>().spec as {
      serviceAccountName: string;
      serviceAccount: string;
      volumes: { name: string; projected: JsonObject }[];
      containers: { volumeMounts: JsonObject[] }[];
      initContainers: { volumeMounts: JsonObject[] }[];
    };
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.serviceAccount, 'default');
    assert.equal(spec.volumes.length, 1);
    const volume = spec.volumes[0]!;
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volume.projected, {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    });
    const mount = {
      name: volume.name,
      readOnly: true,
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
    };
    assert.deepEqual(spec.containers[0]!.volumeMounts, [mount]);
    assert.deepEqual(spec.initContainers[0]!.volumeMounts, [mount]);
  });

  it('ServiceAccount: opting out on the pod or the account, and a missing account', async () => {
    const optOut = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('no-token', { automountServiceAccountToken: false }),
    });
    assert.equal(optOut.status, 201, optOut.text);
    assert.equal(optOut.json<{ spec: JsonObject }>().spec['volumes'], undefined);
    const sa = await s.request('POST', '/api/v1/namespaces/sa/serviceaccounts', {
      body: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'quiet' },
        automountServiceAccountToken: false,
        imagePullSecrets: [{ name: 'registry' }],
      },
    });
    assert.equal(sa.status, 201, sa.text);
    const quiet = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('quiet', { serviceAccountName: 'quiet' }),
    });
    assert.equal(quiet.status, 201, quiet.text);
    const quietSpec = quiet.json<{ spec: JsonObject }>().spec;
    assert.equal(quietSpec['volumes'], undefined);
    assert.deepEqual(quietSpec['imagePullSecrets'], [{ name: 'registry' }]);
    const missing = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('lost', { serviceAccountName: 'nobody' }),
    });
    assert.equal(missing.status, 403);
    assert.equal(
      missing.json().message,
      'pods "lost" is forbidden: error looking up service account sa/nobody: serviceaccount "nobody" not found',
    );
  });

  it('Priority: classes resolve to priority and preemptionPolicy; unknown classes and mismatches are refused', async () => {
    const plain = await s.request('POST', '/api/v1/namespaces/sa/pods', { body: pod('plain') });
    const plainSpec = plain.json<{ spec: JsonObject }>().spec;
    assert.equal(plainSpec['priority'], 0);
    assert.equal(plainSpec['preemptionPolicy'], 'PreemptLowerPriority');
    const critical = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('critical', { priorityClassName: 'system-cluster-critical' }),
    });
    assert.equal(critical.status, 201, critical.text);
    assert.equal(critical.json<{ spec: JsonObject }>().spec['priority'], 2000000000);
    const unknown = await s.request('POST', '/api/v1/namespaces/sa/pods', {
      body: pod('unknown', { priorityClassName: 'gold' }),
    });
    assert.equal(unknown.status, 403);
    assert.equal(
      unknown.json().message,
      'pods "unknown" is forbidden: no PriorityClass with name gold was found',
    );
    const own = await s.request('POST', '/api/v1/namespaces/sa/pods', { body: pod('own', { priority: 7 }) });
    assert.equal(own.status, 403);
    assert.equal(
      own.json().message,
      'pods "own" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    const pc = (name: string) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value: 1000,
      globalDefault: true,
      preemptionPolicy: 'Never',
    });
    assert.equal(
      (await s.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body: pc('silver') })).status,
      201,
    );
    const second = await s.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      body: pc('bronze'),
    });
    assert.equal(second.status, 403);
    assert.equal(
      second.json().message,
      'priorityclasses.scheduling.k8s.io "bronze" is forbidden: PriorityClass silver is already marked as default. Only one default can exist',
    );
    const defaulted = await waitFor('the global default class to reach the cache', async () => {
      const r = await s.request('POST', '/api/v1/namespaces/sa/pods', {
        body: { ...pod(''), metadata: { generateName: 'defaulted-' } },
      });
      const spec = r.json<{ spec: JsonObject }>().spec;
      return spec['priorityClassName'] === 'silver' ? spec : undefined;
    });
    assert.equal(defaulted['priority'], 1000);
    assert.equal(defaulted['preemptionPolicy'], 'Never');
    assert.equal(
      (await s.request('DELETE', '/apis/scheduling.k8s.io/v1/priorityclasses/silver')).status,
      200,
    );
  });

  it('ResourceQuota: exceeded quota and missing container requests are refused as upstream', async () => {
    await createNamespace('q');
    const quota = await s.request('POST', '/api/v1/namespaces/q/resourcequotas', {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'small' },
        spec: { hard: { pods: '1', 'requests.cpu': '1' } },
      },
    });
    assert.equal(quota.status, 201, quota.text);
    await waitFor('the quota controller to fill status.used', async () => {
      const q = (await s.request('GET', '/api/v1/namespaces/q/resourcequotas/small')).json<{
        status?: { used?: JsonObject };
      }>();
      return q.status?.used?.['pods'] === '0';
    });
    const noRequest = await s.request('POST', '/api/v1/namespaces/q/pods', { body: pod('bare') });
    assert.equal(noRequest.status, 403);
    assert.equal(
      noRequest.json().message,
      'pods "bare" is forbidden: failed quota: small: must specify requests.cpu for: c',
    );
    const withCpu = (name: string, cpu: string) =>
      pod(name, { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] });
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/q/pods', { body: withCpu('a', '500m') })).status,
      201,
    );
    const b = await s.request('POST', '/api/v1/namespaces/q/pods', { body: withCpu('b', '100m') });
    assert.equal(b.status, 403);
    assert.deepEqual(b.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pods "b" is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1',
      reason: 'Forbidden',
      details: { name: 'b', kind: 'pods' },
      code: 403,
    });
    const q = (await s.request('GET', '/api/v1/namespaces/q/resourcequotas/small')).json<{
      status: { used: JsonObject };
    }>();
    assert.deepEqual(q.status.used, { pods: '1', 'requests.cpu': '500m' });
    // A dry run is checked but not charged.
    const dry = await s.request('POST', '/api/v1/namespaces/q/pods?dryRun=All', {
      body: withCpu('dry', '100m'),
    });
    assert.equal(dry.status, 403);
  });

  it('ResourceQuota: 100 parallel creates against pods=10 admit exactly 10, twenty times over', async () => {
    for (let round = 0; round < 20; round++) {
      const ns = `burst-${round}`;
      await createNamespace(ns);
      const created = await s.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
        body: {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'ten' },
          spec: { hard: { pods: '10' } },
        },
      });
      assert.equal(created.status, 201, created.text);
      await waitFor('status.used', async () => {
        const q = (await s.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/ten`)).json<{
          status?: { used?: JsonObject };
        }>();
        return q.status?.used?.['pods'] === '0';
      });
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          s.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: pod(`p-${i}`) }),
        ),
      );
      const ok = answers.filter((r) => r.status === 201);
      const refused = answers.filter((r) => r.status === 403);
      assert.equal(
        ok.length,
        10,
        `round ${round}: ${answers
          .filter((r) => r.status !== 201 && r.status !== 403)
          .map((r) => r.text)
          .join('\n')}`,
      );
      assert.equal(refused.length, 90);
      for (const r of refused) {
        assert.match(
          String(r.json().message),
          /^pods "p-\d+" is forbidden: exceeded quota: ten, requested: pods=1, used: pods=10, limited: pods=10$/,
        );
      }
      const q = (await s.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/ten`)).json<{
        status: { used: JsonObject };
      }>();
      assert.equal(q.status.used['pods'], '10');
    }
  });
});
