import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../../machinery/object.js';
import type { JsonObject } from '../../../../util/json.js';
import {
  goRoleRef,
  validateClusterRoleBinding,
  validateRoleBinding,
  validateRoleRefUnchanged,
} from './bindings.js';
import { hasInvalidLabelValueInLabelSelector, validateClusterRole, validateRole } from './rules.js';

const group = 'rbac.authorization.k8s.io';
const strict = { allowInvalidLabelValueInSelector: false };

function object(kind: string, rest: JsonObject, namespace?: string): KubeObject {
  return {
    apiVersion: `${group}/v1`,
    kind,
    metadata: { name: 'x', ...(namespace !== undefined ? { namespace } : {}) },
    ...rest,
  };
}

const role = (rules: JsonObject[]) => object('Role', { rules }, 'default');
const clusterRole = (rest: JsonObject) => object('ClusterRole', rest);
const messages = (errs: readonly { toString(): string }[]) => errs.map((e) => e.toString());

test('policy rules: verbs required; resource rules need api groups and resources', () => {
  assert.deepEqual(
    messages(validateRole(role([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]))),
    [],
  );
  assert.deepEqual(messages(validateRole(role([{}]))), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
  assert.deepEqual(messages(validateRole(role([{ verbs: ['get'], apiGroups: [], resources: ['pods'] }]))), [
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
  ]);
  // Resource names on several resources are allowed (the check was dropped long ago).
  assert.deepEqual(
    messages(
      validateRole(
        role([{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }]),
      ),
    ),
    [],
  );
  assert.deepEqual(messages(validateRole(role([]))), []);
  assert.deepEqual(messages(validateRole(object('Role', {}, 'default'))), []);
});

test('non-resource URLs: cluster roles only, and never mixed with resources', () => {
  const urls = { verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics'] };
  assert.deepEqual(messages(validateClusterRole(clusterRole({ rules: [urls] }), strict)), []);
  assert.deepEqual(messages(validateRole(role([urls]))), [
    'rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/metrics"}: namespaced rules cannot apply to non-resource URLs',
  ]);
  assert.deepEqual(
    messages(
      validateRole(
        role([
          { ...urls, apiGroups: [''], verbs: [] },
          { verbs: ['get'], nonResourceURLs: ['/x'] },
        ]),
      ),
    ),
    [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/metrics"}: namespaced rules cannot apply to non-resource URLs',
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/metrics"}: rules cannot apply to both regular resources and non-resource URLs',
      'rules[1].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    ],
  );
  assert.deepEqual(
    messages(
      validateClusterRole(
        clusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resourceNames: ['n'] }] }),
        strict,
      ),
    ),
    [
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
  );
});

test('aggregation rule: at least one selector, each valid', () => {
  const ok = { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] };
  assert.deepEqual(messages(validateClusterRole(clusterRole({ aggregationRule: ok }), strict)), []);
  // A nil aggregation rule is fine; an empty one is not.
  assert.deepEqual(messages(validateClusterRole(clusterRole({ aggregationRule: null }), strict)), []);
  assert.deepEqual(messages(validateClusterRole(clusterRole({ aggregationRule: {} }), strict)), [
    'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
  ]);
  // An empty selector selects everything: valid.
  assert.deepEqual(
    messages(validateClusterRole(clusterRole({ aggregationRule: { clusterRoleSelectors: [{}] } }), strict)),
    [],
  );
  const bad = {
    clusterRoleSelectors: [
      ok.clusterRoleSelectors[0]!,
      { matchExpressions: [{ key: 'tier', operator: 'Near', values: ['a'] }] },
    ],
  };
  assert.deepEqual(messages(validateClusterRole(clusterRole({ aggregationRule: bad }), strict)), [
    'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
  ]);
});

test('aggregation rule: invalid label values fail on create; tolerated on update, the conversion still fails', () => {
  const badValue = {
    aggregationRule: {
      clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a b'] }] }],
    },
  };
  const cr = clusterRole(badValue);
  assert.equal(hasInvalidLabelValueInLabelSelector(cr), true);
  assert.equal(hasInvalidLabelValueInLabelSelector(clusterRole({ rules: [] })), false);
  const create = messages(validateClusterRole(cr, strict));
  assert.equal(create.length, 2);
  assert.match(
    create[0]!,
    /^aggregationRule\.clusterRoleSelectors\[0\]\.matchExpressions\[0\]\.values\[0\]: Invalid value: "a b": /,
  );
  // Upstream still converts the selector, which fails on the bad value even when it is tolerated.
  assert.deepEqual(messages(validateClusterRole(cr, { allowInvalidLabelValueInSelector: true })), [
    'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
  ]);
});

function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', roleRef: JsonObject, subjects?: JsonObject[]) {
  return object(
    kind,
    { roleRef, ...(subjects !== undefined ? { subjects } : {}) },
    kind === 'RoleBinding' ? 'default' : undefined,
  );
}

test('roleRef: the RBAC group, a known kind and a path-segment name', () => {
  const ref = { apiGroup: group, kind: 'Role', name: 'pod-reader' };
  assert.deepEqual(messages(validateRoleBinding(binding('RoleBinding', ref))), []);
  assert.deepEqual(
    messages(
      validateRoleBinding(binding('RoleBinding', { ...ref, kind: 'ClusterRole', name: 'system:view' })),
    ),
    [],
  );
  assert.deepEqual(
    messages(validateRoleBinding(binding('RoleBinding', { apiGroup: 'x', kind: 'Pod', name: '' }))),
    [
      'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ],
  );
  assert.deepEqual(
    messages(validateClusterRoleBinding(binding('ClusterRoleBinding', { ...ref, name: 'a/b' }))),
    [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      `roleRef.name: Invalid value: "a/b": may not contain '/'`,
    ],
  );
  assert.deepEqual(
    messages(
      validateClusterRoleBinding(binding('ClusterRoleBinding', { ...ref, kind: 'ClusterRole', name: '..' })),
    ),
    [`roleRef.name: Invalid value: "..": may not be '..'`],
  );
});

test('subjects: kinds, names, groups, and namespaces of service accounts in cluster bindings', () => {
  const ref = { apiGroup: group, kind: 'ClusterRole', name: 'view' };
  const subjects = [
    { kind: 'User', apiGroup: group, name: 'alice@example.com' },
    { kind: 'Group', apiGroup: group, name: 'system:authenticated' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
    { kind: 'ServiceAccount', name: 'builder' },
  ];
  assert.deepEqual(messages(validateRoleBinding(binding('RoleBinding', ref, subjects))), []);
  assert.deepEqual(messages(validateClusterRoleBinding(binding('ClusterRoleBinding', ref, subjects))), [
    'subjects[3].namespace: Required value',
  ]);
  assert.deepEqual(
    messages(
      validateRoleBinding(
        binding('RoleBinding', ref, [
          { kind: 'User', name: '' },
          { kind: 'Group', apiGroup: 'example.com', name: 'g' },
          { kind: 'ServiceAccount', apiGroup: group, name: 'Not_Valid' },
          { kind: 'Robot', name: 'r2' },
          {},
        ]),
      ),
    ),
    [
      'subjects[0].name: Required value',
      'subjects[0].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
      'subjects[1].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
      `subjects[2].name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'subjects[2].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[4].name: Required value',
      'subjects[4].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ],
  );
});

test('roleRef cannot change on update; subjects can', () => {
  const ref = { apiGroup: group, kind: 'ClusterRole', name: 'view' };
  const old = binding('RoleBinding', ref, [{ kind: 'User', apiGroup: group, name: 'a' }]);
  assert.deepEqual(messages(validateRoleRefUnchanged(binding('RoleBinding', ref, []), old)), []);
  assert.deepEqual(
    messages(validateRoleRefUnchanged(binding('RoleBinding', { ...ref, name: 'edit' }), old)),
    [
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    ],
  );
  assert.equal(
    goRoleRef({ apiGroup: '', kind: '', name: '' }),
    'rbac.RoleRef{APIGroup:"", Kind:"", Name:""}',
  );
});
