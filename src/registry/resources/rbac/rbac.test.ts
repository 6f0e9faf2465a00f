import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { clusterRoleBindings } from './clusterrolebindings.js';
import { clusterRoles } from './clusterroles.js';
import { rbacV1Resources } from './index.js';
import { roleBindings } from './rolebindings.js';
import { roles } from './roles.js';
import { nilEmptyRules } from './rules.js';

const group = 'rbac.authorization.k8s.io';
const reference = join(
  process.cwd(),
  '../shared/reference/kube-apiserver-v1.28.7/default/discovery/apis_rbac.authorization.k8s.io_v1.json',
);

function object(kind: string, rest: JsonObject, namespace?: string): KubeObject {
  return {
    apiVersion: `${group}/v1`,
    kind,
    metadata: { name: 'x', ...(namespace !== undefined ? { namespace } : {}) },
    ...rest,
  };
}

test('ResourceInfo matches reference discovery apis_rbac.authorization.k8s.io_v1.json', (t) => {
  if (!existsSync(reference)) {
    t.skip(`reference data not found at ${reference}`);
    return;
  }
  const doc: unknown = JSON.parse(readFileSync(reference, 'utf8'));
  const list = isJsonObject(doc) ? doc['resources'] : undefined;
  assert.ok(Array.isArray(list));
  assert.equal(list.length, rbacV1Resources.length);
  for (const r of list) {
    assert.ok(isJsonObject(r));
    const info = rbacV1Resources.find((x) => x.info.resource === r['name'])?.info;
    assert.ok(info !== undefined, JSON.stringify(r['name']));
    assert.equal(info.group, group);
    assert.equal(info.version, 'v1');
    assert.equal(info.kind, r['kind']);
    assert.equal(info.singular, r['singularName']);
    assert.equal(info.namespaced, r['namespaced']);
    assert.deepEqual([...info.verbs], r['verbs']);
    assert.equal(info.shortNames, undefined);
    assert.equal(r['shortNames'], undefined);
    assert.equal(info.categories, undefined);
    assert.equal(r['categories'], undefined);
    assert.equal(info.statusSubresource, undefined);
    assert.equal(info.definition, `io.k8s.api.rbac.v1.${info.kind}`);
  }
});

test('strategies: scope, path-segment names, PUT creates, unconditional updates, no status or generation', () => {
  for (const r of rbacV1Resources) {
    const s = r.strategy;
    assert.equal(s.namespaced, r.info.namespaced, r.info.resource);
    assert.equal(s.nameValidation, 'pathSegment', r.info.resource);
    assert.equal(s.allowCreateOnUpdate, true, r.info.resource);
    assert.equal(s.allowUnconditionalUpdate, true, r.info.resource);
    assert.equal(r.statusStrategy, undefined);
    assert.ok(r.table !== undefined);
    const o = object(r.info.kind, { rules: [] }, r.info.namespaced ? 'default' : undefined);
    s.prepareForCreate(ctx, o);
    assert.equal(o.metadata.generation, undefined, r.info.resource);
    assert.equal(o['status'], undefined, r.info.resource);
    assert.deepEqual(s.warningsOnCreate(ctx, o), []);
  }
  assert.deepEqual(
    rbacV1Resources.map((r) => r.info.resource),
    ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles'],
  );
});

test('roles and cluster roles validate their rules on create and update', () => {
  const urls = { verbs: ['get'], nonResourceURLs: ['/healthz'] };
  const role = object('Role', { rules: [urls] }, 'default');
  assert.deepEqual(messages(roles.strategy.validate(ctx, role)), [
    'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
  ]);
  assert.equal(roles.strategy.validateUpdate(ctx, role, role).length, 1);
  const cr = object('ClusterRole', { rules: [urls] });
  assert.deepEqual(messages(clusterRoles.strategy.validate(ctx, cr)), []);
});

test('cluster roles: an update keeps invalid label values the stored object already has', () => {
  const selector = (values: string[]) => ({
    aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values }] }] },
  });
  const good = object('ClusterRole', selector(['a']));
  const bad = object('ClusterRole', selector(['a b']));
  const valueError = /matchExpressions\[0\]\.values\[0\]: Invalid value: "a b"/;
  assert.ok(messages(clusterRoles.strategy.validate(ctx, bad)).some((m) => valueError.test(m)));
  // From a valid object, the strict check applies.
  assert.ok(messages(clusterRoles.strategy.validateUpdate(ctx, bad, good)).some((m) => valueError.test(m)));
  // From an object that already had it, only the conversion failure remains (as upstream).
  assert.deepEqual(messages(clusterRoles.strategy.validateUpdate(ctx, bad, bad)), [
    'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
  ]);
});

test('bindings: roleRef is immutable, subjects are not', () => {
  const ref = { apiGroup: group, kind: 'ClusterRole', name: 'view' };
  const alice = { kind: 'User', apiGroup: group, name: 'alice' };
  const rb = object('RoleBinding', { roleRef: ref, subjects: [alice] }, 'default');
  assert.deepEqual(messages(roleBindings.strategy.validate(ctx, rb)), []);
  const moreSubjects = object(
    'RoleBinding',
    { roleRef: ref, subjects: [alice, { ...alice, name: 'bob' }] },
    'default',
  );
  assert.deepEqual(messages(roleBindings.strategy.validateUpdate(ctx, moreSubjects, rb)), []);
  const otherRole = object('RoleBinding', { roleRef: { ...ref, kind: 'Role' } }, 'default');
  assert.deepEqual(messages(roleBindings.strategy.validateUpdate(ctx, otherRole, rb)), [
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"view"}: cannot change roleRef',
  ]);
  const crb = object('ClusterRoleBinding', { roleRef: ref });
  const crbRole = object('ClusterRoleBinding', { roleRef: { ...ref, kind: 'Role', name: 'edit' } });
  assert.deepEqual(messages(clusterRoleBindings.strategy.validateUpdate(ctx, crbRole, crb)), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"edit"}: cannot change roleRef',
  ]);
});

test('roles without rules store "rules": null right after metadata, as upstream reads them back', () => {
  const none = object('ClusterRole', { aggregationRule: { clusterRoleSelectors: [{}] } });
  clusterRoles.strategy.canonicalize(none);
  assert.deepEqual(Object.keys(none), ['apiVersion', 'kind', 'metadata', 'rules', 'aggregationRule']);
  assert.equal(none['rules'], null);
  const empty = object('Role', { rules: [] }, 'default');
  roles.strategy.canonicalize(empty);
  assert.equal(empty['rules'], null);
  const some = object('Role', { rules: [{ verbs: ['get'] }] }, 'default');
  nilEmptyRules(some);
  assert.deepEqual(some['rules'], [{ verbs: ['get'] }]);
  const bare: KubeObject = { apiVersion: `${group}/v1`, kind: 'Role', metadata: {} };
  delete (bare as Partial<KubeObject>).metadata;
  nilEmptyRules(bare);
  assert.equal(bare['rules'], null);
});
