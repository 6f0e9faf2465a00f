import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import {
  clusterRoleBindingTable,
  clusterRoleTable,
  roleBindingTable,
  roleTable,
  subjectsStrings,
} from './rbac.js';

const now = new Date('2024-05-01T12:00:00Z');
const group = 'rbac.authorization.k8s.io';

function obj(kind: string, rest: JsonObject): KubeObject {
  return {
    apiVersion: `${group}/v1`,
    kind,
    metadata: { name: 'x', creationTimestamp: '2024-04-30T12:00:00Z' },
    ...rest,
  };
}

const names = (t: { columns: readonly { name: string }[] }): string[] => t.columns.map((c) => c.name);
const priorities = (t: { columns: readonly { priority: number }[] }): number[] =>
  t.columns.map((c) => c.priority);

describe('rbac tables', () => {
  it('roles and cluster roles: NAME, CREATED AT (RFC 3339, UTC)', () => {
    for (const t of [roleTable, clusterRoleTable]) {
      assert.deepEqual(names(t), ['Name', 'Created At']);
      assert.equal(t.columns[1]!.type, 'date');
      assert.deepEqual(t.cells(obj('Role', { rules: [] }), now), ['x', '2024-04-30T12:00:00Z']);
    }
  });

  it('bindings: NAME, ROLE, AGE; wide: USERS, GROUPS, SERVICEACCOUNTS', () => {
    for (const t of [roleBindingTable, clusterRoleBindingTable]) {
      assert.deepEqual(names(t), ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
      assert.deepEqual(priorities(t), [0, 0, 0, 1, 1, 1]);
      assert.equal(t.columns[0]!.format, 'name');
    }
    const rb = obj('ClusterRoleBinding', {
      roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [
        { kind: 'User', apiGroup: group, name: 'alice' },
        { kind: 'Group', apiGroup: group, name: 'system:masters' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
        { kind: 'User', apiGroup: group, name: 'bob' },
        { kind: 'Group', apiGroup: group, name: 'dev' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
    });
    assert.deepEqual(clusterRoleBindingTable.cells(rb, now), [
      'x',
      'ClusterRole/cluster-admin',
      '24h',
      'alice, bob',
      'system:masters, dev',
      'kube-system/default, ci/builder',
    ]);
  });

  it('bindings without subjects print empty wide cells', () => {
    const rb = obj('RoleBinding', { roleRef: { apiGroup: group, kind: 'Role', name: 'reader' } });
    assert.deepEqual(roleBindingTable.cells(rb, now), ['x', 'Role/reader', '24h', '', '', '']);
  });

  it('subjects of unknown kinds are left out; a service account without namespace prints "/name"', () => {
    assert.deepEqual(
      subjectsStrings([
        { kind: 'Robot', name: 'r2' },
        { kind: 'ServiceAccount', name: 'sa' },
      ]),
      { users: [], groups: [], serviceAccounts: ['/sa'] },
    );
  });
});
