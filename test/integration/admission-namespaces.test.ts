/**
 * Integration: the namespace plugins of the admission chain on an in-process server
 * over SQLite — NamespaceLifecycle (a missing namespace is 404 before any later plugin or
 * validation looks at the request, a terminating one refuses new content with its
 * NamespaceTerminating cause, the immortal namespaces) and NamespaceExists (on its own, without
 * NamespaceLifecycle).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const configMap = (name: string, data: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

const pod = (metadata: JsonObject): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

const namespace = (name: string): JsonObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('NamespaceLifecycle', () => {
  let s: TestServer;
  before(async () => {
    // ServiceAccount and PodNodeSelector stay on: both read the namespace's objects in the mutating
    // phase, after NamespaceLifecycle.
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      admission: { enable: ['PodNodeSelector'] },
    });
  });
  after(async () => {
    await s.stop();
  });

  it('a create in a missing namespace is its 404, before later plugins and validation', async () => {
    const cm = await s.request('POST', '/api/v1/namespaces/nowhere/configmaps', { body: configMap('a') });
    assert.equal(cm.status, 404, cm.text);
    assert.deepEqual(cm.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces "nowhere" not found',
      reason: 'NotFound',
      details: { name: 'nowhere', kind: 'namespaces' },
      code: 404,
    });
    // Not ServiceAccount's missing `default` account, nor PodNodeSelector's missing namespace.
    const p = await s.request('POST', '/api/v1/namespaces/nowhere/pods', { body: pod({ name: 'p' }) });
    assert.equal(p.status, 404, p.text);
    assert.equal(p.json().message, 'namespaces "nowhere" not found');
    // Not the object's own validation error either.
    const invalid = await s.request('POST', '/api/v1/namespaces/nowhere/configmaps', {
      body: configMap('b', { 'not a key!': 'x' }),
    });
    assert.equal(invalid.status, 404, invalid.text);
    assert.equal(invalid.json().message, 'namespaces "nowhere" not found');
  });

  it('access reviews in a missing namespace are answered (no hint whether it exists)', async () => {
    const r = await s.request(
      'POST',
      '/apis/authorization.k8s.io/v1/namespaces/nowhere/localsubjectaccessreviews',
      {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'LocalSubjectAccessReview',
          metadata: { namespace: 'nowhere' },
          spec: {
            user: 'alice',
            resourceAttributes: { namespace: 'nowhere', verb: 'get', resource: 'pods' },
          },
        },
      },
    );
    assert.equal(r.status, 201, r.text);
  });

  it('a terminating namespace refuses new content with the NamespaceTerminating cause; updates and deletes go on', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: namespace('doomed') })).status, 201);
    const kept = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('kept') });
    assert.equal(kept.status, 201, kept.text);
    const gone = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('gone') });
    assert.equal(gone.status, 201, gone.text);
    // Without the namespace controller the namespace stays Terminating.
    const del = await s.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200, del.text);
    assert.equal(del.json<{ status: { phase: string } }>().status.phase, 'Terminating');

    const late = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('late') });
    assert.equal(late.status, 403, late.text);
    assert.deepEqual(late.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      reason: 'Forbidden',
      details: {
        name: 'late',
        kind: 'configmaps',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace doomed is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
      code: 403,
    });
    // The check comes before the name is generated, before ServiceAccount (no `default` account
    // here) and before validation.
    const generated = await s.request('POST', '/api/v1/namespaces/doomed/pods', {
      body: pod({ generateName: 'late-' }),
    });
    assert.equal(generated.status, 403, generated.text);
    assert.equal(
      generated.json().message,
      'pods "late-" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    const invalid = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: configMap('bad', { 'not a key!': 'x' }),
    });
    assert.equal(invalid.status, 403, invalid.text);
    assert.equal(
      (invalid.json()['details'] as { causes: JsonObject[] }).causes[0]!['reason'],
      'NamespaceTerminating',
    );

    const updated = await s.request('PATCH', '/api/v1/namespaces/doomed/configmaps/kept', {
      raw: JSON.stringify({ data: { k: 'v' } }),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.json()['data'], { k: 'v' });
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/doomed/configmaps/gone')).status, 200);
    assert.equal((await s.request('GET', '/api/v1/namespaces/doomed/configmaps/gone')).status, 404);
  });

  it('default, kube-system and kube-public may not be deleted', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const r = await s.request('DELETE', `/api/v1/namespaces/${name}`);
      assert.equal(r.status, 403, r.text);
      assert.deepEqual(r.json(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        reason: 'Forbidden',
        details: { name, kind: 'namespaces' },
        code: 403,
      });
      const dry = await s.request('DELETE', `/api/v1/namespaces/${name}?dryRun=All`);
      assert.equal(dry.status, 403, dry.text);
      const ns = (await s.request('GET', `/api/v1/namespaces/${name}`)).json<{ status: { phase: string } }>();
      assert.equal(ns.status.phase, 'Active');
    }
    // Any other namespace may go.
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: namespace('mortal') })).status, 201);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/mortal')).status, 200);
  });
});

describe('NamespaceExists (without NamespaceLifecycle)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      admission: { enable: ['NamespaceExists'], disable: ['ServiceAccount', 'NamespaceLifecycle'] },
    });
  });
  after(async () => {
    await s.stop();
  });

  it('a create in a missing namespace is its 404; existing and cluster-scoped targets pass', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/nowhere/configmaps', { body: configMap('a') });
    assert.equal(r.status, 404, r.text);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces "nowhere" not found',
      reason: 'NotFound',
      details: { name: 'nowhere', kind: 'namespaces' },
      code: 404,
    });
    const ok = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a') });
    assert.equal(ok.status, 201, ok.text);
    const cluster = await s.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' }, value: 1 },
    });
    assert.equal(cluster.status, 201, cluster.text);
  });

  it('a namespace created just before is found (a live read behind the cache)', async () => {
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (await s.request('POST', '/api/v1/namespaces', { body: namespace(`fresh-${i}`) })).status,
        201,
      );
      const r = await s.request('POST', `/api/v1/namespaces/fresh-${i}/configmaps`, { body: configMap('a') });
      assert.equal(r.status, 201, r.text);
    }
  });

  it('it does not look at the phase: a terminating namespace still takes new content', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: namespace('doomed') })).status, 201);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/doomed')).status, 200);
    const r = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('late') });
    assert.equal(r.status, 201, r.text);
  });
});
