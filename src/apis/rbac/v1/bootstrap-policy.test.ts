/** The v1.27 RBAC bootstrap policy's objects, counts and a few roles exactly. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootstrapPolicy } from './bootstrap-policy.js';

const names = (l: readonly { metadata: { name?: string } }[]) => l.map((o) => o.metadata.name ?? '');

test('#12 bootstrap policy: 62 cluster roles, 43 cluster role bindings, 7 roles, 7 role bindings', () => {
  const p = bootstrapPolicy();
  assert.equal(p.clusterRoles.length, 62);
  assert.equal(p.clusterRoleBindings.length, 43);
  assert.equal(p.roles.length, 7);
  assert.equal(p.roleBindings.length, 7);
  assert.equal(p.clusterRoles.filter((r) => r.metadata.name?.startsWith('system:controller:')).length, 31);
  for (const o of [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings]) {
    assert.equal(
      o.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'],
      'true',
      o.metadata.name,
    );
    assert.equal(o.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
  }
  assert.equal(new Set(names(p.clusterRoles)).size, 62);
  // Every binding refers to a role of the policy.
  const clusterRoles = new Set(names(p.clusterRoles));
  for (const b of p.clusterRoleBindings) {
    assert.ok(clusterRoles.has((b['roleRef'] as { name: string }).name), b.metadata.name);
  }
  const roles = new Set(p.roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`));
  for (const b of p.roleBindings) {
    assert.ok(
      roles.has(`${b.metadata.namespace}/${(b['roleRef'] as { name: string }).name}`),
      b.metadata.name,
    );
  }
  for (const name of [
    'admin',
    'cluster-admin',
    'edit',
    'view',
    'system:aggregate-to-admin',
    'system:aggregate-to-edit',
    'system:aggregate-to-view',
    'system:basic-user',
    'system:discovery',
    'system:public-info-viewer',
    'system:service-account-issuer-discovery',
    'system:node',
    'system:kube-scheduler',
    'system:controller:clusterrole-aggregation-controller',
  ]) {
    assert.ok(clusterRoles.has(name), name);
  }
});

test('#12 bootstrap policy: cluster-admin, the aggregated roles and the public roles as upstream', () => {
  const p = bootstrapPolicy();
  const role = (name: string) => p.clusterRoles.find((r) => r.metadata.name === name)!;
  const binding = (name: string) => p.clusterRoleBindings.find((r) => r.metadata.name === name)!;
  assert.deepEqual(role('cluster-admin')['rules'], [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['*'], nonResourceURLs: ['*'] },
  ]);
  assert.deepEqual(binding('cluster-admin')['subjects'], [
    { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
  ]);
  assert.deepEqual(role('admin')['aggregationRule'], {
    clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }],
  });
  assert.equal(role('admin')['rules'], null);
  // edit aggregates into admin, view into edit.
  assert.equal(role('edit').metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
  assert.equal(role('view').metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
  assert.deepEqual(role('system:public-info-viewer')['rules'], [
    { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
  ]);
  assert.deepEqual(
    (binding('system:public-info-viewer')['subjects'] as { name: string }[]).map((s) => s.name),
    ['system:authenticated', 'system:unauthenticated'],
  );
  // Discovery and the basic user role are for authenticated users only (since v1.14).
  assert.deepEqual(
    (binding('system:discovery')['subjects'] as { name: string }[]).map((s) => s.name),
    ['system:authenticated'],
  );
  assert.deepEqual(role('system:basic-user')['rules'], [
    {
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    },
    { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
  ]);
  assert.deepEqual(role('system:service-account-issuer-discovery')['rules'], [
    { verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/openid/v1/jwks'] },
  ]);
  assert.deepEqual(binding('system:node')['subjects'], null);
  assert.deepEqual(binding('system:controller:job-controller')['subjects'], [
    { kind: 'ServiceAccount', name: 'job-controller', namespace: 'kube-system' },
  ]);
  // Copies: changing one does not change the next.
  (role('cluster-admin')['rules'] as unknown[]).length = 0;
  assert.equal(
    (bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === 'cluster-admin')!['rules'] as unknown[])
      .length,
    2,
  );
});
