/**
 * Integration: REST error semantics of an in-process server on real SQLite — Status bodies,
 * codes and messages as kube-apiserver v1.27 sends them (section 4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: 'b' },
});

describe('REST errors', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.stop());

  it('404 NotFound has upstream Status body', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps/nope');
    assert.equal(r.status, 404);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
  });

  it('409 AlreadyExists on a second create, with group for non-core kinds', async () => {
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') })).status,
      201,
    );
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') });
    assert.equal(r.status, 409);
    assert.equal(r.json()['message'], 'configmaps "dup" already exists');
    assert.equal(r.json()['reason'], 'AlreadyExists');
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l1' }, spec: {} };
    await s.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease });
    const r2 = await s.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      body: lease,
    });
    assert.equal(r2.json()['message'], 'leases.coordination.k8s.io "l1" already exists');
    assert.deepEqual(r2.json()['details'], { name: 'l1', group: 'coordination.k8s.io', kind: 'leases' });
  });

  it('409 Conflict on a stale resourceVersion', async () => {
    const created = (
      await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('stale') })
    ).json<{
      metadata: { resourceVersion: string };
    }>();
    const rv = created.metadata.resourceVersion;
    const ok = await s.request('PUT', '/api/v1/namespaces/default/configmaps/stale', {
      body: { ...cm('stale', { resourceVersion: rv }), data: { a: 'c' } },
    });
    assert.equal(ok.status, 200);
    const r = await s.request('PUT', '/api/v1/namespaces/default/configmaps/stale', {
      body: { ...cm('stale', { resourceVersion: rv }), data: { a: 'd' } },
    });
    assert.equal(r.status, 409);
    assert.equal(
      r.json()['message'],
      'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('422 Invalid names the field with upstream wording', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('Bad_Name') });
    assert.equal(r.status, 422);
    const body = r.json<{ message: string; reason: string; details: { causes: { field: string }[] } }>();
    assert.equal(body.reason, 'Invalid');
    assert.equal(
      body.message,
      "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    assert.equal(body.details.causes[0]?.field, 'metadata.name');
  });

  it('400 on a body of the wrong apiVersion', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { ...cm('x'), apiVersion: 'apps/v1' },
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.json()['message'],
      // runtime/scheme.go New: apps/v1 has no ConfigMap (exact-texts.test.ts has the other cases).
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it('400 on a namespace mismatch between body and URL', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('x', { namespace: 'other' }),
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.json()['message'],
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('404 for content in a missing namespace (NamespaceLifecycle)', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/missing/configmaps', { body: cm('x') });
    assert.equal(r.status, 404);
    assert.equal(r.json()['message'], 'namespaces "missing" not found');
  });

  it('403 when deleting an immortal namespace', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces/kube-system');
    assert.equal(r.status, 403);
    assert.equal(
      r.json()['message'],
      'namespaces "kube-system" is forbidden: this namespace may not be deleted',
    );
  });

  it('413 for request bodies over 3 MiB; etcd-like rejection over 1.5 MiB; nothing stored', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024 + 10);
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { ...cm('big'), data: { a: big } },
    });
    assert.equal(r.status, 413);
    assert.equal(r.json()['reason'], 'RequestEntityTooLarge');
    // ConfigMaps stop at 1 MiB by validation; an Endpoints object can reach etcd's 1.5 MiB limit.
    const addresses = Array.from({ length: 90_000 }, (_, i) => ({
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    }));
    const r2 = await s.request('POST', '/api/v1/namespaces/default/endpoints', {
      body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'mid' }, subsets: [{ addresses }] },
    });
    assert.equal(r2.status, 500);
    assert.equal(r2.json()['message'], 'etcdserver: request is too large');
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/endpoints/mid')).status, 404);
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/big')).status, 404);
  });

  it('400 on malformed JSON, never a crash', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { raw: '{"apiVersion":' });
    assert.equal(r.status, 400);
    assert.equal(r.json()['kind'], 'Status');
    const h = await s.request('GET', '/healthz');
    assert.equal(h.text, 'ok');
  });

  it('405 for a verb a resource does not serve', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces');
    assert.equal(r.status, 405);
    assert.equal(r.json()['reason'], 'MethodNotAllowed');
  });

  it('fieldValidation: Strict rejects unknown and duplicate fields, Warn warns, Ignore drops', async () => {
    const body = JSON.stringify({ ...cm('fv'), spec: { x: 1 } });
    const strict = await s.request('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', {
      raw: body,
    });
    assert.equal(strict.status, 400);
    assert.equal(
      strict.json()['message'],
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"',
    );
    const dup = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv2","name":"fv3"}}';
    const strictDup = await s.request(
      'POST',
      '/api/v1/namespaces/default/configmaps?fieldValidation=Strict',
      {
        raw: dup,
      },
    );
    assert.equal(strictDup.status, 400);
    assert.match(String(strictDup.json()['message']), /duplicate field "metadata.name"/);
    const warn = await s.request('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Warn', {
      raw: body,
    });
    assert.equal(warn.status, 201);
    assert.deepEqual(warn.warnings, ['unknown field "spec"']);
    assert.equal(warn.json()['spec'], undefined);
    const ignore = await s.request('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Ignore', {
      raw: body.replace('"fv"', '"fv4"'),
    });
    assert.equal(ignore.status, 201);
    assert.deepEqual(ignore.warnings, []);
  });

  it('type errors are 400 with the Go decoder text', async () => {
    const r = await s.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: '3' } },
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.json()['message'],
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });
});
