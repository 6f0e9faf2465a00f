/**
 * The review kinds are created, never stored, and answered by the server's own
 * authenticator and authorizer: SelfSubjectReview (authentication.k8s.io/v1beta1, AM-10),
 * TokenReview, and the four access reviews (`kubectl auth can-i`).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default/discovery');
type Json = Record<string, unknown>;

describe('reviews', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false, storage: 'memory' });
  });
  after(() => s.stop());

  test('discovery equals the reference (authentication v1, authorization v1) and v1beta1 serves SelfSubjectReview', async () => {
    for (const [path, file] of [
      ['/apis/authorization.k8s.io/v1', 'apis_authorization.k8s.io_v1.json'],
      ['/apis/authentication.k8s.io/v1', 'apis_authentication.k8s.io_v1.json'],
    ] as const) {
      const ours = (await s.request('GET', path)).json<{ resources: Json[] }>().resources;
      const reference = join(refDir, file);
      if (!existsSync(reference)) {
        console.log(`skipping the reference comparison: ${reference} is absent`);
        continue;
      }
      const ref = (JSON.parse(readFileSync(reference, 'utf8')) as { resources: Json[] }).resources;
      for (const r of ours)
        assert.deepEqual(
          r,
          ref.find((x) => x['name'] === r['name']),
          `${path} ${String(r['name'])}`,
        );
      // v1.28 moved SelfSubjectReview to v1; v1.27 serves it at v1beta1.
      assert.equal(ours.length, file.includes('authentication') ? ref.length - 1 : ref.length);
    }
    const beta = (await s.request('GET', '/apis/authentication.k8s.io/v1beta1')).json<{
      resources: Json[];
    }>();
    assert.deepEqual(beta.resources, [
      {
        name: 'selfsubjectreviews',
        singularName: 'selfsubjectreview',
        namespaced: false,
        kind: 'SelfSubjectReview',
        verbs: ['create'],
      },
    ]);
  });

  test('SelfSubjectReview answers who the requester is (kubectl alpha auth whoami)', async () => {
    const r = await s.request('POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json(), {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      status: {
        userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      },
    });
    assert.equal(
      (await s.request('GET', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews')).status,
      405,
    );
  });

  test('SelfSubjectAccessReview and SubjectAccessReview ask the authorizer; nothing is stored', async () => {
    const ssar = await s.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'list', resource: 'secrets', namespace: 'kube-system' } },
      },
    });
    assert.equal(ssar.status, 201, ssar.text);
    assert.deepEqual(ssar.json()['status'], { allowed: true });
    const sar = (groups: string[]) =>
      s.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: 'bob', groups, nonResourceAttributes: { path: '/apis', verb: 'get' } },
        },
      });
    assert.deepEqual((await sar([])).json()['status'], { allowed: false });
    // RBAC's reason names the binding that allowed it (system:discovery, bootstrap policy).
    assert.deepEqual((await sar(['system:authenticated'])).json()['status'], {
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    });
    const invalid = await s.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: {} },
    });
    assert.equal(invalid.status, 422);
    assert.equal(
      invalid.json()['message'],
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
  });

  test('LocalSubjectAccessReview must name its own namespace', async () => {
    const r = await s.request(
      'POST',
      '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews',
      {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'LocalSubjectAccessReview',
          spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } },
        },
      },
    );
    // v1.27: the body's namespace defaults to the URL's, then ValidateLocalSubjectAccessReview says 422.
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
  });

  test('SelfSubjectRulesReview lists the rules; TokenReview needs a token and refuses an unknown one', async () => {
    const rules = await s.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'default' },
      },
    });
    assert.equal(rules.status, 201, rules.text);
    const status = rules.json()['status'] as Json;
    assert.deepEqual((status['resourceRules'] as Json[])[0], {
      verbs: ['*'],
      apiGroups: ['*'],
      resources: ['*'],
    });
    assert.equal(status['incomplete'], false);
    const noToken = await s.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} },
    });
    assert.equal(noToken.status, 400);
    assert.equal(noToken.json()['message'], 'token is required for TokenReview in authentication');
    const token = await s.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc' } },
    });
    assert.equal(token.status, 201);
    assert.deepEqual(token.json()['status'], { user: {}, error: 'invalid bearer token' });
  });

  test('requests without credentials may not create reviews (anonymous is off: 401)', async () => {
    const r = await s.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      credentials: 'none',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: {} },
    });
    assert.equal(r.status, 401);
  });
  test('a review asked for as a Table is 406 Not Acceptable (no table convertor), as PartialObjectMetadata is answered', async () => {
    // Upstream's "should return a 406 for a backend which does not implement metadata" [Conformance].
    const body = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { nonResourceAttributes: { path: '/', verb: 'get' } },
    };
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const table = await s.request('POST', path, {
      body,
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(table.status, 406);
    const status = table.json<Json>();
    assert.equal(status['kind'], 'Status');
    assert.equal(status['reason'], 'NotAcceptable');
    // A Table or, failing that, JSON: the JSON answer.
    const fallback = await s.request('POST', path, {
      body,
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' },
    });
    assert.equal(fallback.status, 201);
    assert.equal(fallback.json<Json>()['kind'], 'SelfSubjectAccessReview');
    const meta = await s.request('POST', path, {
      body,
      headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' },
    });
    assert.equal(meta.status, 201);
    assert.equal(meta.json<Json>()['kind'], 'PartialObjectMetadata');
  });
});
