/**
 * Issue #6: the computed kinds that validate — SubjectAccessReview and SelfSubjectAccessReview
 * (pkg/apis/authorization/validation, a 422 with an empty name) — and the ones whose REST
 * storage refuses bad input otherwise: Binding (ValidatePodBinding's aggregate returned as a plain
 * error, so upstream answers 500 with reason ""), TokenReview without a token and an Eviction whose
 * name differs from the URL's (400 BadRequest).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'SubjectAccessReview: neither attribute kind, no user or group',
    kind: 'SubjectAccessReview',
    group: 'authorization.k8s.io',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: {} },
    causes: [
      [
        'spec.resourceAttributes',
        'FieldValueInvalid',
        'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ],
      [
        'spec.user',
        'FieldValueInvalid',
        'Invalid value: "": at least one of user or group must be specified',
      ],
    ],
  },
  {
    name: 'SubjectAccessReview: both attribute kinds',
    kind: 'SubjectAccessReview',
    group: 'authorization.k8s.io',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'u',
        resourceAttributes: { verb: 'get' },
        nonResourceAttributes: { path: '/x', verb: 'get' },
      },
    },
    causes: [
      [
        'spec.nonResourceAttributes',
        'FieldValueInvalid',
        'Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      ],
    ],
  },
  {
    name: 'SelfSubjectAccessReview: neither attribute kind (no user needed)',
    kind: 'SelfSubjectAccessReview',
    group: 'authorization.k8s.io',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: {} },
    causes: [
      [
        'spec.resourceAttributes',
        'FieldValueInvalid',
        'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ],
    ],
  },
];

runTable('invalid objects: access reviews', rows);

describe('invalid objects: computed kinds answered without a 422', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ controllers: false, storage: 'memory' });
    const ns = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'invalid' } },
    });
    assert.equal(ns.status, 201, ns.text);
  });
  after(() => server.stop());

  const status = (r: { json<T>(): T }): Record<string, unknown> => r.json<Record<string, unknown>>();

  it('Binding to a Service without a name: 500 with the aggregate, reason empty', async () => {
    const r = await server.request('POST', '/api/v1/namespaces/invalid/bindings', {
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'p' },
        target: { kind: 'Service', name: '' },
      },
    });
    assert.equal(r.status, 500, r.text);
    const s = status(r);
    assert.equal(
      s['message'],
      '[target.kind: Unsupported value: "Service": supported values: "Node", "<empty>", target.name: Required value]',
    );
    assert.equal(s['reason'] ?? '', '');
  });

  it('TokenReview without a token: 400', async () => {
    const r = await server.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(status(r)['message'], 'token is required for TokenReview in authentication');
    assert.equal(status(r)['reason'], 'BadRequest');
  });

  it('Eviction named differently from the URL: 400', async () => {
    const r = await server.request('POST', '/api/v1/namespaces/invalid/pods/p/eviction', {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'q' } },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(status(r)['message'], 'name in URL does not match name in Eviction object');
  });
});
