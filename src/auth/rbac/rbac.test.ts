/**
 * The RBAC authorizer as upstream v1.27's (plugin/pkg/auth/authorizer/rbac): rule
 * matching, subjects, the reasons it gives, missing roles, and the rules it lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PolicyRule } from '../../apis/rbac/v1/evaluation.js';
import { bindingViewOf, policyRuleOf, roleViewOf, ruleAllows } from '../../apis/rbac/v1/evaluation.js';
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { AuthorizationAttributes } from '../authorizer.js';
import { rbacAuthorizer } from './authorizer.js';
import { RbacPolicyIndex } from './policy-index.js';

const rule = (o: Partial<Record<keyof PolicyRule, string[]>>): PolicyRule => policyRuleOf(o);

const resourceReq = (verb: string, group: string, resource: string, sub = '', name = '') => ({
  isResourceRequest: true,
  verb,
  apiGroup: group,
  resource,
  subresource: sub,
  name,
  path: '',
});
const pathReq = (verb: string, path: string) => ({
  isResourceRequest: false,
  verb,
  apiGroup: '',
  resource: '',
  subresource: '',
  name: '',
  path,
});

test('#12 rule matching: verbs, groups, resource/subresource, */subresource, names, URLs', () => {
  const pods = rule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] });
  assert.equal(ruleAllows(resourceReq('get', '', 'pods'), pods), true);
  assert.equal(ruleAllows(resourceReq('watch', '', 'pods'), pods), false);
  assert.equal(ruleAllows(resourceReq('get', 'apps', 'pods'), pods), false);
  // A resource does not grant its subresources.
  assert.equal(ruleAllows(resourceReq('get', '', 'pods', 'log'), pods), false);
  const log = rule({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] });
  assert.equal(ruleAllows(resourceReq('get', '', 'pods', 'log'), log), true);
  assert.equal(ruleAllows(resourceReq('get', '', 'pods'), log), false);
  const anyScale = rule({ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] });
  assert.equal(ruleAllows(resourceReq('get', 'apps', 'deployments', 'scale'), anyScale), true);
  assert.equal(ruleAllows(resourceReq('get', 'apps', 'deployments', 'status'), anyScale), false);
  assert.equal(ruleAllows(resourceReq('get', 'apps', 'deployments'), anyScale), false);
  const star = rule({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
  assert.equal(ruleAllows(resourceReq('deletecollection', 'x.io', 'things', 'status'), star), true);
  const named = rule({
    verbs: ['get', 'update'],
    apiGroups: [''],
    resources: ['configmaps'],
    resourceNames: ['a'],
  });
  assert.equal(ruleAllows(resourceReq('get', '', 'configmaps', '', 'a'), named), true);
  assert.equal(ruleAllows(resourceReq('get', '', 'configmaps', '', 'b'), named), false);
  // A list has no name: resourceNames never allow it.
  assert.equal(ruleAllows(resourceReq('list', '', 'configmaps'), named), false);
  const urls = rule({ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*', '/logs**'] });
  assert.equal(ruleAllows(pathReq('get', '/healthz'), urls), true);
  assert.equal(ruleAllows(pathReq('get', '/healthz/etcd'), urls), false);
  assert.equal(ruleAllows(pathReq('get', '/apis/apps/v1'), urls), true);
  assert.equal(ruleAllows(pathReq('get', '/apis'), urls), false);
  assert.equal(ruleAllows(pathReq('get', '/logs/x'), urls), true);
  assert.equal(ruleAllows(pathReq('post', '/healthz'), urls), false);
  // Resource rules never allow paths and URL rules never allow resources.
  assert.equal(ruleAllows(pathReq('get', '/healthz'), pods), false);
  assert.equal(ruleAllows(resourceReq('get', '', 'pods'), urls), false);
});

const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}) });
const obj = (o: Record<string, unknown>): KubeObject => o as KubeObject;

function policy(): RbacPolicyIndex {
  const index = new RbacPolicyIndex();
  index.setClusterRole(
    roleViewOf(
      obj({
        metadata: meta('reader'),
        rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      }),
    ),
  );
  index.setClusterRole(
    roleViewOf(obj({ metadata: meta('urls'), rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] })),
  );
  index.setRole(
    roleViewOf(
      obj({
        metadata: meta('cm', 'team'),
        rules: [
          { verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
        ],
      }),
    ),
  );
  index.setClusterRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('readers'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'Group', name: 'devs' }],
      }),
    ),
  );
  index.setClusterRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('metrics'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'urls' },
        subjects: [{ kind: 'User', name: 'prom' }],
      }),
    ),
  );
  index.setRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('cm', 'team'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm' },
        // No namespace: the binding's.
        subjects: [{ kind: 'ServiceAccount', name: 'bot' }],
      }),
    ),
  );
  index.setRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('readers-here', 'team'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'User', name: 'jane' }],
      }),
    ),
  );
  return index;
}

const userOf = (name: string, groups: string[] = ['system:authenticated']): UserInfo => ({
  name,
  uid: '',
  groups,
  extra: {},
});

function attrs(
  user: UserInfo,
  verb: string,
  resource: string,
  namespace: string,
  name = '',
): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace,
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    name,
  };
}

test('#12 allow reasons name the binding, role and subject as upstream', () => {
  const z = rbacAuthorizer(policy());
  assert.deepEqual(z.authorize(attrs(userOf('ann', ['devs']), 'list', 'pods', 'anywhere')), {
    decision: 'allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "reader" to Group "devs"',
  });
  assert.deepEqual(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'team')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "readers-here/team" of ClusterRole "reader" to User "jane"',
  });
  const bot = userOf('system:serviceaccount:team:bot', [
    'system:serviceaccounts',
    'system:serviceaccounts:team',
  ]);
  assert.deepEqual(z.authorize(attrs(bot, 'update', 'configmaps', 'team', 'settings')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "cm/team" of Role "cm" to ServiceAccount "bot/team"',
  });
  assert.deepEqual(
    z.authorize({ ...attrs(userOf('prom'), 'get', '', ''), isResourceRequest: false, path: '/metrics' }),
    {
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "urls" to User "prom"',
    },
  );
});

test('#12 denials are no opinion with an empty reason; bindings only act in their namespace', () => {
  const z = rbacAuthorizer(policy());
  const none = { decision: 'noOpinion', reason: '' };
  assert.deepEqual(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'other')), none);
  assert.deepEqual(z.authorize(attrs(userOf('jane'), 'delete', 'pods', 'team')), none);
  const bot = userOf('system:serviceaccount:team:bot');
  assert.deepEqual(z.authorize(attrs(bot, 'update', 'configmaps', 'team', 'other')), none);
  // The same service account name in another namespace is another subject.
  assert.deepEqual(
    z.authorize(attrs(userOf('system:serviceaccount:x:bot'), 'update', 'configmaps', 'team', 'settings')),
    none,
  );
  // A user named like a group is not in it.
  assert.deepEqual(z.authorize(attrs(userOf('devs', []), 'list', 'pods', 'team')), none);
});

test('#12 a binding to a missing role: the reason names it; rulesFor reports it as evaluationError', () => {
  const index = policy();
  index.setClusterRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('dangling'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' },
        subjects: [{ kind: 'User', name: 'jane' }],
      }),
    ),
  );
  index.setRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('dangling', 'team'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'gone' },
        subjects: [{ kind: 'User', name: 'jane' }],
      }),
    ),
  );
  const z = rbacAuthorizer(index);
  assert.deepEqual(z.authorize(attrs(userOf('jane'), 'delete', 'pods', 'team')), {
    decision: 'noOpinion',
    reason:
      'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone" not found]',
  });
  assert.deepEqual(z.authorize(attrs(userOf('jane'), 'delete', 'pods', '')), {
    decision: 'noOpinion',
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
  });
  // Still allowed by what does exist.
  assert.equal(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'team')).decision, 'allow');
  const rules = z.rulesFor(userOf('jane'), 'team');
  assert.deepEqual(rules, {
    resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    nonResourceRules: [],
    incomplete: false,
    evaluationError:
      '[clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone" not found]',
  });
});

test('#12 the index follows deletes and replacements', () => {
  const index = policy();
  const z = rbacAuthorizer(index);
  index.deleteRoleBinding('team', 'readers-here');
  assert.equal(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'team')).decision, 'noOpinion');
  // A binding replaced with other subjects no longer applies to the old ones.
  index.setClusterRoleBinding(
    bindingViewOf(
      obj({
        metadata: meta('readers'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'User', name: 'jane' }],
      }),
    ),
  );
  assert.equal(z.authorize(attrs(userOf('ann', ['devs']), 'get', 'pods', 'x')).decision, 'noOpinion');
  assert.equal(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'x')).decision, 'allow');
  index.clear('ClusterRoleBinding');
  assert.equal(z.authorize(attrs(userOf('jane'), 'get', 'pods', 'x')).decision, 'noOpinion');
});
