import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../util/json.js';
import { defaultClusterRoleBinding, defaultRoleBinding } from './defaults.js';
import { clusterRoleBindingInfo, roleBindingInfo } from './resources.js';

const group = 'rbac.authorization.k8s.io';

test('roleRef.apiGroup defaults to the RBAC group; a given one is kept', () => {
  const rb: JsonObject = { roleRef: { kind: 'Role', name: 'r' } };
  defaultRoleBinding(rb);
  assert.deepEqual(rb['roleRef'], { kind: 'Role', name: 'r', apiGroup: group });
  const other: JsonObject = { roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'r' } };
  defaultRoleBinding(other);
  assert.deepEqual(other['roleRef'], { apiGroup: 'example.com', kind: 'Role', name: 'r' });
  const empty: JsonObject = {};
  defaultClusterRoleBinding(empty);
  assert.deepEqual(empty['roleRef'], { apiGroup: group });
});

test('User and Group subjects get the RBAC group; ServiceAccount and unknown kinds stay empty', () => {
  const crb: JsonObject = {
    roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' },
    subjects: [
      { kind: 'User', name: 'alice' },
      { kind: 'Group', name: 'dev', apiGroup: '' },
      { kind: 'ServiceAccount', name: 'default', namespace: 'ns' },
      { kind: 'Robot', name: 'r2' },
      { kind: 'User', name: 'bob', apiGroup: 'example.com' },
    ],
  };
  defaultClusterRoleBinding(crb);
  assert.deepEqual(crb['subjects'], [
    { kind: 'User', name: 'alice', apiGroup: group },
    { kind: 'Group', name: 'dev', apiGroup: group },
    { kind: 'ServiceAccount', name: 'default', namespace: 'ns' },
    { kind: 'Robot', name: 'r2' },
    { kind: 'User', name: 'bob', apiGroup: 'example.com' },
  ]);
});

test('the binding infos carry the defaulters; roles have none', () => {
  assert.equal(roleBindingInfo.defaulter, defaultRoleBinding);
  assert.equal(clusterRoleBindingInfo.defaulter, defaultClusterRoleBinding);
});
