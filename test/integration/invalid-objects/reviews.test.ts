/**
 * The computed kinds that validate — SubjectAccessReview, SelfSubjectAccessReview and
 * LocalSubjectAccessReview (pkg/apis/authorization/validation, a 422 with an empty name; the
 * LocalSubjectAccessReview's body namespace checked against the URL's first, 400) — and the ones whose REST
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

const LSAR = '/apis/authorization.k8s.io/v1/namespaces/invalid/localsubjectaccessreviews';

/**
 * The request's metadata as upstream prints it (`%#v` of the wiped ObjectMeta). Upstream's
 * ManagedFields hold the field manager's entry (time and pointer address vary), nil here.
 */
function objectMeta(namespace: string, labels: string): string {
  return (
    `v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"${namespace}", SelfLink:"", UID:"", ResourceVersion:"", ` +
    'Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, ' +
    `DeletionGracePeriodSeconds:(*int64)(nil), Labels:${labels}, Annotations:map[string]string(nil), ` +
    'OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}'
  );
}

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
  {
    name: 'SubjectAccessReview: metadata must be empty',
    kind: 'SubjectAccessReview',
    group: 'authorization.k8s.io',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: { labels: { a: 'b' } },
      spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } },
    },
    causes: [
      [
        'metadata',
        'FieldValueInvalid',
        `Invalid value: ${objectMeta('', 'map[string]string{"a":"b"}')}: must be empty`,
      ],
    ],
  },
  {
    name: "LocalSubjectAccessReview: the attributes' namespace must be the review's",
    kind: 'LocalSubjectAccessReview',
    group: 'authorization.k8s.io',
    path: LSAR,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      spec: { user: 'u', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
    },
    causes: [
      [
        'spec.resourceAttributes.namespace',
        'FieldValueInvalid',
        'Invalid value: "other": must match metadata.namespace',
      ],
    ],
  },
  {
    name: 'LocalSubjectAccessReview: attributes without a namespace do not match either',
    kind: 'LocalSubjectAccessReview',
    group: 'authorization.k8s.io',
    path: LSAR,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'invalid' },
      spec: { groups: ['g'], resourceAttributes: { verb: 'get', resource: 'pods' } },
    },
    causes: [
      [
        'spec.resourceAttributes.namespace',
        'FieldValueInvalid',
        'Invalid value: "": must match metadata.namespace',
      ],
    ],
  },
  {
    name: 'LocalSubjectAccessReview: spec errors, then metadata, then non-resource attributes',
    kind: 'LocalSubjectAccessReview',
    group: 'authorization.k8s.io',
    path: LSAR,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { labels: { a: 'b' } },
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    },
    causes: [
      [
        'spec.user',
        'FieldValueInvalid',
        'Invalid value: "": at least one of user or group must be specified',
      ],
      [
        'metadata',
        'FieldValueInvalid',
        `Invalid value: ${objectMeta('invalid', 'map[string]string{"a":"b"}')}: must be empty except for namespace`,
      ],
      [
        'spec.nonResourceAttributes',
        'FieldValueInvalid',
        'Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: disallowed on this kind of request',
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

  it('LocalSubjectAccessReview whose body namespace is not the URL one: 400 from the create handler', async () => {
    const r = await server.request('POST', LSAR, {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: 'other' },
        spec: { user: 'u', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
      },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      status(r)['message'],
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    assert.equal(status(r)['reason'], 'BadRequest');
  });

  it('LocalSubjectAccessReview without a body namespace takes the URL one', async () => {
    const r = await server.request('POST', LSAR, {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'LocalSubjectAccessReview',
        spec: { user: 'u', resourceAttributes: { namespace: 'invalid', verb: 'get', resource: 'pods' } },
      },
    });
    assert.equal(r.status, 201, r.text);
    const body = r.json<{ metadata: { namespace?: string }; status: { allowed: boolean } }>();
    assert.equal(body.metadata.namespace, 'invalid');
    assert.equal(typeof body.status.allowed, 'boolean');
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
