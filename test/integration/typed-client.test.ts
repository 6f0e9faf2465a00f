/**
 * Integration: the typed clients against a real in-process server — ConfigMaps and
 * Deployments (namespaced, with status and scale), Namespaces and Nodes (cluster-scoped), a typed
 * watch, API errors (404, 409) as ApiError, and the generated clientset against discovery.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import type { RestClient } from '../../src/client/rest-client.js';
import { typedClients } from '../../src/client/typed-client.js';
import type { Clientset, TypedWatchEvent } from '../../src/client/typed-client.js';
import type { ResourceDescription } from '../../src/client/typed-client-resource.js';
import type { appsV1, coreV1 } from '../../src/client/types/index.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = 'typed-client';

function apiError(code: number, reason: string): (err: unknown) => boolean {
  return (err) => err instanceof ApiError && err.code === code && err.reason === reason;
}

describe('typed clients', () => {
  let s: TestServer;
  let rest: RestClient;
  let c: Clientset;
  before(async () => {
    s = await startTestServer({ controllers: false });
    rest = adminClient(s);
    c = typedClients(rest);
    await c.core.v1.namespaces.create({ metadata: { name: ns } });
  });
  after(async () => {
    rest.close();
    await s.stop();
  });

  it('#7 ConfigMap: create, get, list, patch, update, delete; 409 and 404 as ApiError', async () => {
    const cms = c.core.v1.configMaps;
    const created = await cms.create({
      metadata: { name: 'a', namespace: ns, labels: { app: 'x' } },
      data: { k: 'v' },
    });
    assert.equal(created.kind, 'ConfigMap');
    assert.ok(created.metadata?.uid);
    await assert.rejects(
      cms.create({ metadata: { name: 'a' }, data: {} }, { namespace: ns }),
      apiError(409, 'AlreadyExists'),
    );
    await cms.create({ metadata: { name: 'b' } }, { namespace: ns });

    const got = await cms.get('a', { namespace: ns });
    assert.equal(got.data?.['k'], 'v');
    const listed = await cms.list({ namespace: ns, labelSelector: 'app=x' });
    assert.equal(listed.kind, 'ConfigMapList');
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['a'],
    );
    const everywhere = await cms.list({ fieldSelector: `metadata.namespace=${ns}` });
    assert.deepEqual(everywhere.items.map((i) => i.metadata?.name).sort(), ['a', 'b']);
    const paged = await cms.list({ namespace: ns, limit: 1 });
    assert.equal(paged.items.length, 1);
    assert.ok(paged.metadata?.continue);
    const rest2 = await cms.list({ namespace: ns, limit: 1, continue: paged.metadata.continue });
    assert.notEqual(rest2.items[0]?.metadata?.name, paged.items[0]?.metadata?.name);

    const merged = await cms.patch('a', { data: { k: null, k2: 'v2' } }, 'merge', { namespace: ns });
    assert.deepEqual(merged.data, { k2: 'v2' });
    const jsonPatched = await cms.patch('a', [{ op: 'add', path: '/data/k3', value: 'v3' }], 'json', {
      namespace: ns,
    });
    assert.deepEqual(jsonPatched.data, { k2: 'v2', k3: 'v3' });
    const dry = await cms.update({ ...jsonPatched, data: { only: 'dry' } }, { dryRun: true });
    assert.deepEqual(dry.data, { only: 'dry' });
    assert.deepEqual((await cms.get('a', { namespace: ns })).data, { k2: 'v2', k3: 'v3' });
    const updated = await cms.update(
      { ...jsonPatched, data: { final: 'yes' } },
      { fieldManager: 'typed-test' },
    );
    assert.deepEqual(updated.data, { final: 'yes' });
    // A stale resourceVersion conflicts.
    await assert.rejects(cms.update({ ...jsonPatched, data: {} }), apiError(409, 'Conflict'));

    await assert.rejects(
      cms.delete('a', { namespace: ns, preconditions: { uid: 'not-the-uid' } }),
      apiError(409, 'Conflict'),
    );
    assert.equal(await cms.delete('a', { namespace: ns }), undefined);
    await assert.rejects(cms.get('a', { namespace: ns }), apiError(404, 'NotFound'));
    await assert.rejects(cms.delete('a', { namespace: ns }), apiError(404, 'NotFound'));
    const gone = await cms.deleteCollection({ namespace: ns });
    assert.deepEqual(
      gone.items.map((i) => i.metadata?.name),
      ['b'],
    );
  });

  it('#7 Deployment: updateStatus, strategic patch, the scale subresource', async () => {
    const deployments = c.apps.v1.deployments;
    const d: appsV1.Deployment = {
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
        },
      },
    };
    const created = await deployments.create(d);
    assert.equal(created.spec?.template.spec?.containers[0]?.name, 'nginx');
    assert.equal(created.spec?.strategy?.type, 'RollingUpdate'); // defaulted by the server

    const withStatus = await deployments.updateStatus({
      ...created,
      status: { observedGeneration: 1, replicas: 1 },
    });
    assert.equal(withStatus.status?.replicas, 1);

    const patched = await deployments.patch(
      'web',
      { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } } } },
      'strategic',
      { namespace: ns },
    );
    assert.equal(patched.spec?.template.spec?.containers[0]?.image, 'nginx:2');
    assert.equal(patched.spec?.template.spec?.containers.length, 1);

    const scale = deployments.subresource('web', 'scale', { namespace: ns });
    const current = await scale.get();
    assert.equal(current.kind, 'Scale');
    assert.equal(current.spec?.replicas, 1);
    const scaled = await scale.update({ ...current, spec: { replicas: 3 } });
    assert.equal(scaled.spec?.replicas, 3);
    assert.equal((await deployments.get('web', { namespace: ns })).spec?.replicas, 3);

    const status = deployments.subresource('web', 'status', { namespace: ns });
    const patchedStatus = await status.patch({ status: { readyReplicas: 1, availableReplicas: 1 } }, 'merge');
    assert.equal(patchedStatus.status?.availableReplicas, 1);

    const deleted = await deployments.delete('web', { namespace: ns, propagationPolicy: 'Foreground' });
    // Foreground deletion keeps the object (with the finalizer) until its dependents are gone.
    assert.ok(deleted?.metadata?.finalizers?.includes('foregroundDeletion'));
  });

  it('#7 cluster-scoped: Namespace and Node', async () => {
    const namespaces = c.core.v1.namespaces;
    const created = await namespaces.create({ metadata: { name: 'typed-scratch' } });
    assert.equal(created.status?.phase, 'Active');
    const patched = await namespaces.patch('typed-scratch', { metadata: { labels: { team: 'a' } } }, 'merge');
    assert.equal(patched.metadata?.labels?.['team'], 'a');
    const listed = await namespaces.list({ labelSelector: 'team=a' });
    assert.deepEqual(
      listed.items.map((n) => n.metadata?.name),
      ['typed-scratch'],
    );
    // A namespace stays (Terminating) while its finalizers run: the answer is the Namespace.
    const deleted = await namespaces.delete('typed-scratch');
    assert.equal(deleted?.status?.phase, 'Terminating');

    const nodes = c.core.v1.nodes;
    const node = await nodes.create({ metadata: { name: 'typed-node' } });
    const ready: coreV1.NodeCondition = { type: 'Ready', status: 'True', reason: 'Test' };
    const withStatus = await nodes.updateStatus({ ...node, status: { conditions: [ready] } });
    assert.equal(withStatus.status?.conditions?.[0]?.type, 'Ready');
    assert.equal((await nodes.get('typed-node')).status?.conditions?.[0]?.status, 'True');
    assert.equal(await nodes.delete('typed-node'), undefined);
    await assert.rejects(nodes.get('typed-node'), apiError(404, 'NotFound'));
  });

  it('#7 watch: typed ADDED, MODIFIED and DELETED events from a resourceVersion', async () => {
    const cms = c.core.v1.configMaps;
    const rv = (await cms.list({ namespace: ns })).metadata?.resourceVersion;
    const abort = new AbortController();
    const events: TypedWatchEvent<coreV1.ConfigMap>[] = [];
    const watching = (async () => {
      for await (const e of cms.watch(abort.signal, {
        namespace: ns,
        fieldSelector: 'metadata.name=w',
        ...(rv !== undefined ? { resourceVersion: rv } : {}),
      })) {
        events.push(e);
        if (e.type === 'DELETED') break;
      }
    })();
    const w = await cms.create({ metadata: { name: 'w', namespace: ns }, data: { n: '1' } });
    await cms.update({ ...w, data: { n: '2' } });
    await cms.delete('w', { namespace: ns });
    await watching;
    abort.abort();
    assert.deepEqual(
      events.map((e) => (e.type === 'ERROR' ? 'ERROR' : `${e.type} ${e.object.data?.['n'] ?? ''}`)),
      ['ADDED 1', 'MODIFIED 2', 'DELETED 2'],
    );
  });

  it('#7 the clientset matches discovery: every served resource, its scope and kind', async () => {
    const described: ResourceDescription[] = [];
    type Level<T> = Record<string, T>;
    const tree = c as unknown as Level<Level<Level<{ resource: ResourceDescription }>>>;
    for (const versions of Object.values(tree))
      for (const clients of Object.values(versions))
        for (const client of Object.values(clients)) described.push(client.resource);
    const byGv = new Map<string, ResourceDescription[]>();
    for (const d of described) {
      const gv = d.group === '' ? d.version : `${d.group}/${d.version}`;
      byGv.set(gv, [...(byGv.get(gv) ?? []), d]);
    }
    const groups = await rest.request('GET', '/apis');
    const served = ['v1'];
    for (const g of (groups['groups'] ?? []) as { versions: { groupVersion: string }[] }[])
      for (const v of g.versions) served.push(v.groupVersion);
    for (const gv of served) {
      const doc = await rest.request('GET', gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
      const resources = (doc['resources'] ?? []) as { name: string; kind: string; namespaced: boolean }[];
      const main = resources.filter((r) => !r.name.includes('/') && r.name !== 'bindings');
      const ours = byGv.get(gv) ?? [];
      assert.deepEqual(
        ours.map((d) => [d.resource, d.kind, d.namespaced]).sort(),
        main.map((r) => [r.name, r.kind, r.namespaced]).sort(),
        gv,
      );
      for (const d of ours) {
        const subs = resources
          .filter((r) => r.name.startsWith(`${d.resource}/`))
          .map((r) => r.name.slice(d.resource.length + 1));
        for (const sub of Object.keys(d.subresources))
          assert.ok(subs.includes(sub), `${gv} ${d.resource}/${sub}`);
      }
    }
    // Group-versions off by default (the alpha ones) are in the clientset too.
    assert.ok(described.length > served.length);
  });
});
