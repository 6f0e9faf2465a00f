/**
 * AM-06: CEL's `authorizer` variable is answered by the server's own authorizer chain
 * (system:masters, then RBAC), as the request's user or as a named service account; the same
 * union the request path uses answers synchronously.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bindingViewOf, roleViewOf } from '../../apis/rbac/v1/evaluation.js';
import { privilegedGroupAuthorizer } from '../../auth/builtin-authorizers.js';
import { celAuthorizer } from '../../auth/cel-authorizer.js';
import { rbacAuthorizer } from '../../auth/rbac/authorizer.js';
import { RbacPolicyIndex } from '../../auth/rbac/policy-index.js';
import { unionAuthorizer } from '../../auth/union-authorizer.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { evalCel } from '../../cel/runtime/test-helpers.js';
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';

const obj = (o: Record<string, unknown>): KubeObject => o as unknown as KubeObject;
const user = (name: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, extra: {} });

function chain(): Authorizer {
  const index = new RbacPolicyIndex();
  index.setRole(
    roleViewOf(
      obj({
        metadata: { name: 'pod-creator', namespace: 'x', uid: 'r1' },
        rules: [{ verbs: ['create'], apiGroups: [''], resources: ['pods'] }],
      }),
    ),
  );
  index.setRoleBinding(
    bindingViewOf(
      obj({
        metadata: { name: 'jane-creates', namespace: 'x', uid: 'b1' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-creator' },
        subjects: [
          { kind: 'User', name: 'jane' },
          { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
        ],
      }),
    ),
  );
  index.setClusterRole(
    roleViewOf(
      obj({
        metadata: { name: 'health', uid: 'r2' },
        rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      }),
    ),
  );
  index.setClusterRoleBinding(
    bindingViewOf(
      obj({
        metadata: { name: 'health', uid: 'b2' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'health' },
        subjects: [{ kind: 'Group', name: 'system:authenticated' }],
      }),
    ),
  );
  return unionAuthorizer([privilegedGroupAuthorizer(), rbacAuthorizer(index)]);
}

function check(expression: string, requester: UserInfo): unknown {
  const r = evalCel(
    expression,
    {},
    { authorizer: celAuthorizer(chain(), requester), variables: ['authorizer'] },
  );
  if ('error' in r) throw r.error;
  return r.value;
}

const createPods = "authorizer.group('').resource('pods').namespace('x').name('y').check('create')";

test('AM-06: resource checks are RBAC decisions for the request user, with its reason', () => {
  assert.equal(check(`${createPods}.allowed()`, user('jane')), true);
  assert.equal(
    check(`${createPods}.reason()`, user('jane')),
    'RBAC: allowed by RoleBinding "jane-creates/x" of Role "pod-creator" to User "jane"',
  );
  assert.equal(check(`${createPods}.allowed()`, user('bob')), false);
  assert.equal(check(`${createPods}.reason()`, user('bob')), '');
  assert.equal(
    check("authorizer.group('').resource('pods').namespace('other').check('create').allowed()", user('jane')),
    false,
  );
  // system:masters is asked first, as on the request path.
  assert.equal(check(`${createPods}.allowed()`, user('root', ['system:masters'])), true);
});

test("AM-06: authorizer.serviceAccount(ns, name) checks as that service account, not the requester's", () => {
  const sa = "authorizer.serviceAccount('ci', 'builder').group('').resource('pods').namespace('x')";
  assert.equal(check(`${sa}.check('create').allowed()`, user('bob')), true);
  assert.equal(check(`${sa}.check('delete').allowed()`, user('root', ['system:masters'])), false);
});

test('AM-06: path checks are non-resource decisions', () => {
  assert.equal(
    check("authorizer.path('/healthz').check('get').allowed()", user('amy', ['system:authenticated'])),
    true,
  );
  assert.equal(
    check("authorizer.path('/metrics').check('get').allowed()", user('amy', ['system:authenticated'])),
    false,
  );
});

test('an authorizer that cannot answer synchronously makes the check a CEL error, not an answer', () => {
  const slow: Authorizer = { authorize: () => Promise.resolve({ decision: 'allow', reason: '' }) };
  const r = evalCel(
    `${createPods}.allowed()`,
    {},
    {
      authorizer: celAuthorizer(unionAuthorizer([slow]), user('jane')),
      variables: ['authorizer'],
    },
  );
  assert.ok('error' in r);
  assert.match(r.error.message, /error in authorization check: the authorizer cannot answer synchronously/);
});
