/**
 * Rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding are
 * stored and served as kube-apiserver v1.27 does (discovery, defaults, validation messages, the
 * immutable roleRef, create by PUT, Table columns). Authorization does not use them yet.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rbacV1Resources } from '../../src/registry/resources/rbac/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const group = 'rbac.authorization.k8s.io';
const base = `/apis/${group}/v1`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
  // Until the composition root serves the group, register it here (the same resources).
  if ((await server.request('GET', base)).status === 404) {
    for (const r of rbacV1Resources) server.resources.add(r);
  }
});
after(() => server.stop());

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

test('discovery lists the four kinds with every verb, no short names and no subresources', async () => {
  const r = await server.request('GET', base);
  assert.equal(r.status, 200, r.text);
  const resources = r.json<{ resources: Json[] }>().resources;
  assert.deepEqual(
    resources.map((x) => [x['name'], x['kind'], x['namespaced'], x['shortNames']]),
    [
      ['clusterrolebindings', 'ClusterRoleBinding', false, undefined],
      ['clusterroles', 'ClusterRole', false, undefined],
      ['rolebindings', 'RoleBinding', true, undefined],
      ['roles', 'Role', true, undefined],
    ],
  );
  for (const x of resources) {
    assert.deepEqual(x['verbs'], [
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
  }
  const groups = (await server.request('GET', '/apis')).json<{ groups: { name: string }[] }>().groups;
  assert.ok(groups.some((g) => g.name === group));
});

test('a cluster role named with colons is stored as sent, without generation or status', async () => {
  const body = {
    apiVersion: `${group}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'system:test:pod-reader' },
    rules: [
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
      { nonResourceURLs: ['/healthz', '/version'], verbs: ['get'] },
    ],
  };
  const created = await server.request('POST', `${base}/clusterroles`, { body });
  assert.equal(created.status, 201, created.text);
  const got = (await server.request('GET', `${base}/clusterroles/system:test:pod-reader`)).json();
  assert.deepEqual(got['rules'], body.rules);
  assert.equal(at(got, 'metadata', 'generation'), undefined);
  assert.equal(got['status'], undefined);
  assert.equal(at(got, 'metadata', 'namespace'), undefined);
});

test('role validation: non-resource URLs are for cluster roles only; verbs are required', async () => {
  const r = await server.request('POST', `${base}/namespaces/default/roles`, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'Role',
      metadata: { name: 'bad' },
      rules: [
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'], verbs: [] },
      ],
    },
  });
  assert.equal(r.status, 422, r.text);
  const status = r.json();
  assert.equal(
    status['message'],
    'Role.rbac.authorization.k8s.io "bad" is invalid: [rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs, rules[1].verbs: Required value: verbs must contain at least one value]',
  );
  assert.deepEqual(at(status, 'details', 'causes'), [
    {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
      field: 'rules[0].nonResourceURLs',
    },
    {
      reason: 'FieldValueRequired',
      message: 'Required value: verbs must contain at least one value',
      field: 'rules[1].verbs',
    },
  ]);
  assert.equal(at(status, 'details', 'group'), group);
  assert.equal(at(status, 'details', 'kind'), 'Role');
});

test('an aggregation rule needs a selector', async () => {
  const r = await server.request('POST', `${base}/clusterroles`, {
    body: { apiVersion: `${group}/v1`, kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: {} },
  });
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json()['message'],
    'ClusterRole.rbac.authorization.k8s.io "agg" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
  );
  const ok = await server.request('POST', `${base}/clusterroles`, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-agg': 'true' } }],
      },
    },
  });
  assert.equal(ok.status, 201, ok.text);
  // No aggregation controller yet: its rules stay empty, which upstream shows as null.
  assert.equal(ok.json()['rules'], null);
});

test('role bindings: defaults filled in, roleRef immutable, subjects changeable', async () => {
  const path = `${base}/namespaces/default/rolebindings`;
  const created = await server.request('POST', path, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'read-pods' },
      roleRef: { kind: 'ClusterRole', name: 'system:test:pod-reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const rb = created.json();
  assert.deepEqual(rb['roleRef'], { apiGroup: group, kind: 'ClusterRole', name: 'system:test:pod-reader' });
  assert.deepEqual(rb['subjects'], [
    { kind: 'User', apiGroup: group, name: 'alice' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
  ]);

  const changed = await server.request('PATCH', `${path}/read-pods`, {
    body: { roleRef: { apiGroup: group, kind: 'Role', name: 'other' } },
    contentType: 'application/merge-patch+json',
  });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(
    changed.json()['message'],
    'RoleBinding.rbac.authorization.k8s.io "read-pods" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
  );

  const more = await server.request('PATCH', `${path}/read-pods`, {
    body: [{ op: 'add', path: '/subjects/-', value: { kind: 'Group', name: 'dev' } }],
    contentType: 'application/json-patch+json',
  });
  assert.equal(more.status, 200, more.text);
  assert.deepEqual(at(more.json(), 'subjects', 2), { kind: 'Group', apiGroup: group, name: 'dev' });
});

test('cluster role bindings: a ClusterRole only, and service accounts name their namespace', async () => {
  const r = await server.request('POST', `${base}/clusterrolebindings`, {
    body: {
      apiVersion: `${group}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bad' },
      roleRef: { apiGroup: group, kind: 'Role', name: 'x' },
      subjects: [
        { kind: 'ServiceAccount', name: 'builder' },
        { kind: 'Robot', name: 'r2' },
      ],
    },
  });
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json()['message'],
    'ClusterRoleBinding.rbac.authorization.k8s.io "bad" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
  );
});

test('PUT creates a missing binding and updates without a resourceVersion', async () => {
  const path = `${base}/clusterrolebindings/test-admins`;
  const body = {
    apiVersion: `${group}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'test-admins' },
    roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'Group', apiGroup: group, name: 'admins' }],
  };
  const created = await server.request('PUT', path, { body });
  assert.equal(created.status, 201, created.text);
  const updated = await server.request('PUT', path, {
    body: { ...body, subjects: [...body.subjects, { kind: 'User', name: 'root' }] },
  });
  assert.equal(updated.status, 200, updated.text);
  assert.deepEqual(at(updated.json(), 'subjects', 1), { kind: 'User', apiGroup: group, name: 'root' });
  assert.notEqual(
    at(updated.json(), 'metadata', 'resourceVersion'),
    at(created.json(), 'metadata', 'resourceVersion'),
  );
});

test('kubectl get columns: bindings show ROLE and, wide, their subjects; roles show CREATED AT', async () => {
  const rb = await server.request('GET', `${base}/namespaces/default/rolebindings`, { accept: table });
  assert.equal(rb.status, 200, rb.text);
  const t = rb.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    t.columnDefinitions.map((c) => [c['name'], c['priority']]),
    [
      ['Name', 0],
      ['Role', 0],
      ['Age', 0],
      ['Users', 1],
      ['Groups', 1],
      ['ServiceAccounts', 1],
    ],
  );
  const row = t.rows.find((x) => x.cells[0] === 'read-pods');
  assert.ok(row !== undefined);
  assert.deepEqual(
    [row.cells[1], row.cells[3], row.cells[4], row.cells[5]],
    ['ClusterRole/system:test:pod-reader', 'alice', 'dev', 'default/default'],
  );

  const cr = await server.request('GET', `${base}/clusterroles/system:test:pod-reader`, { accept: table });
  assert.equal(cr.status, 200, cr.text);
  const ct = cr.json<{ columnDefinitions: Json[]; rows: { cells: unknown[] }[] }>();
  assert.deepEqual(
    ct.columnDefinitions.map((c) => c['name']),
    ['Name', 'Created At'],
  );
  assert.equal(ct.rows[0]!.cells[0], 'system:test:pod-reader');
  assert.match(String(ct.rows[0]!.cells[1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('role bindings live in a namespace: listed across namespaces, gone with deletecollection', async () => {
  const all = await server.request('GET', `${base}/rolebindings`);
  assert.equal(all.status, 200, all.text);
  assert.ok(all.json<{ items: Json[] }>().items.some((i) => at(i, 'metadata', 'name') === 'read-pods'));
  const del = await server.request('DELETE', `${base}/namespaces/default/rolebindings`);
  assert.equal(del.status, 200, del.text);
  const after = await server.request('GET', `${base}/namespaces/default/rolebindings`);
  assert.deepEqual(after.json<{ items: Json[] }>().items, []);
});
