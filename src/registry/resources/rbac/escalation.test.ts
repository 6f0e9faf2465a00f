/**
 * RBAC escalation prevention as upstream's policybased storage and ConfirmNoEscalation:
 * who may write roles and bindings, and the exact refusal texts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PolicyRule, RoleRef } from '../../../apis/rbac/v1/evaluation.js';
import { policyRuleOf } from '../../../apis/rbac/v1/evaluation.js';
import { StatusError } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { UserInfo } from '../../../machinery/user.js';
import type { WriteCheck } from '../../generic/hooks.js';
import type { EscalationChecks } from './escalation.js';
import { escalationHooks } from './escalation.js';
import { compactRules, covers } from './policy-compare.js';

const jane: UserInfo = { name: 'jane', uid: '', groups: ['dev', 'system:authenticated'], extra: {} };
const rules = (...l: Record<string, string[]>[]): PolicyRule[] => l.map((r) => policyRuleOf(r));

function checks(o: {
  held: PolicyRule[];
  allow?: (verb: string, resource: string, name: string) => boolean;
  roles?: Record<string, PolicyRule[]>;
  error?: string;
}): EscalationChecks {
  return {
    allowed: (q) => Promise.resolve(o.allow?.(q.verb, q.resource, q.name) ?? false),
    rulesFor: () => ({ rules: o.held, error: o.error ?? '' }),
    roleRefRules: (ref: RoleRef) => {
      const r = o.roles?.[ref.name];
      if (r === undefined) throw new Error(`clusterrole.rbac.authorization.k8s.io "${ref.name}" not found`);
      return r;
    },
  };
}

const role = (name: string, r: unknown, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name, namespace: 'ns' },
    rules: r,
    ...extra,
  }) as KubeObject;
const ctx = (user: UserInfo, namespace = 'ns') => ({ namespace, dryRun: false, user });
const created = (obj: KubeObject, requestName = ''): WriteCheck => ({
  operation: 'CREATE',
  requestName,
  obj,
});
const updated = (obj: KubeObject, old: KubeObject): WriteCheck => ({
  operation: 'UPDATE',
  requestName: obj.metadata.name ?? '',
  obj,
  old,
});

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail('expected a refusal');
}

test('#12 covers and compactRules: subresources, */x, names, URLs; verbs merged per resource', () => {
  const owner = rules(
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', '*/status'] },
    { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    { verbs: ['get'], nonResourceURLs: ['/logs/*'] },
  );
  assert.deepEqual(
    covers(owner, rules({ verbs: ['get'], apiGroups: [''], resources: ['pods', 'pods/status'] })),
    [],
  );
  assert.deepEqual(
    covers(
      owner,
      rules({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }),
    ),
    [],
  );
  assert.deepEqual(covers(owner, rules({ verbs: ['get'], nonResourceURLs: ['/logs/x'] })), []);
  const missing = covers(
    owner,
    rules(
      { verbs: ['get', 'watch', 'delete'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
    ),
  );
  assert.equal(missing.length, 3);
  assert.deepEqual(
    compactRules(missing).map((r) => [r.resources, r.verbs]),
    [
      [['pods'], ['watch', 'delete']],
      [['configmaps'], ['get']],
    ],
  );
});

test('#12 a Role with rules the requester does not hold is refused with upstream text', async () => {
  const hooks = escalationHooks(
    'roles',
    checks({ held: rules({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }) }),
  );
  const wanted = [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] },
    { verbs: ['get'], nonResourceURLs: ['/metrics'] },
  ];
  const err = await refusal(hooks.checkWrite!(ctx(jane), created(role('r', wanted))));
  assert.equal(err.code, 403);
  assert.equal(
    err.message,
    'roles.rbac.authorization.k8s.io "r" is forbidden: user "jane" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}\n' +
      '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}\n' +
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  );
  assert.deepEqual(err.status.details, { name: 'r', group: 'rbac.authorization.k8s.io', kind: 'roles' });
  // What the requester holds passes; so does anything with `escalate`, or for system:masters.
  await hooks.checkWrite!(
    ctx(jane),
    created(role('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])),
  );
  const escalating = escalationHooks('roles', checks({ held: [], allow: (verb) => verb === 'escalate' }));
  await escalating.checkWrite!(ctx(jane), created(role('r', wanted)));
  const masters: UserInfo = { ...jane, groups: ['system:masters'] };
  await escalationHooks('roles', checks({ held: [] })).checkWrite!(ctx(masters), created(role('r', wanted)));
  // Resolution errors are added to the text.
  const withErrors = escalationHooks(
    'roles',
    checks({ held: [], error: 'role.rbac.authorization.k8s.io "x" not found' }),
  );
  const e2 = await refusal(withErrors.checkWrite!(ctx(jane), created(role('r', [wanted[2]]))));
  assert.match(
    e2.message,
    /Verbs:\["get"\]\}; resolution errors: \[role\.rbac\.authorization\.k8s\.io "x" not found\]$/,
  );
});

test('#12 updates that only touch GC fields are not checked; an aggregation rule needs everything', async () => {
  const hooks = escalationHooks('clusterroles', checks({ held: [] }));
  const old = role('r', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  const gcOnly = {
    ...old,
    metadata: { ...old.metadata, finalizers: ['x'], ownerReferences: [], managedFields: [] },
  } as KubeObject;
  await hooks.checkWrite!(ctx(jane, ''), updated(gcOnly, old));
  await refusal(
    hooks.checkWrite!(
      ctx(jane, ''),
      updated({ ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old),
    ),
  );
  const holder = escalationHooks(
    'clusterroles',
    checks({ held: rules({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }) }),
  );
  const aggregated = role('agg', null, {
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
  });
  const err = await refusal(holder.checkWrite!(ctx(jane, ''), created(aggregated)));
  assert.equal(
    err.message,
    'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
  );
});

test('#12 bindings: bind on the role, or holding its rules; a missing role is refused', async () => {
  const binding = (roleName: string): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'b', namespace: 'ns' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [{ kind: 'User', name: 'bob' }],
  });
  const roles = { view: rules({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }) };
  const holdsGet = escalationHooks(
    'rolebindings',
    checks({ held: rules({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), roles }),
  );
  const err = await refusal(holdsGet.checkWrite!(ctx(jane), created(binding('view'))));
  assert.equal(
    err.message,
    'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "jane" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["list"]}',
  );
  const missing = await refusal(holdsGet.checkWrite!(ctx(jane), created(binding('nope'))));
  assert.equal(
    missing.message,
    'rolebindings.rbac.authorization.k8s.io "b" is forbidden: clusterrole.rbac.authorization.k8s.io "nope" not found',
  );
  const holdsAll = escalationHooks('rolebindings', checks({ held: roles.view, roles }));
  await holdsAll.checkWrite!(ctx(jane), created(binding('view')));
  const binder = escalationHooks(
    'rolebindings',
    checks({
      held: [],
      roles,
      allow: (verb, resource, name) => verb === 'bind' && resource === 'clusterroles' && name === 'view',
    }),
  );
  await binder.checkWrite!(ctx(jane), created(binding('view')));
  await refusal(binder.checkWrite!(ctx(jane), created(binding('nope'))));
});

test('escalate is asked for the request name (none for a POST); removing an aggregationRule needs everything', async () => {
  const named = escalationHooks(
    'roles',
    checks({ held: [], allow: (verb, _resource, name) => verb === 'escalate' && name === 'special' }),
  );
  const wanted = [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }];
  await refusal(named.checkWrite!(ctx(jane), created(role('special', wanted))));
  // A PUT that creates names the role in its URL, as an update does.
  await named.checkWrite!(ctx(jane), created(role('special', wanted), 'special'));
  await named.checkWrite!(ctx(jane), updated(role('special', wanted), role('special', [])));

  const holder = escalationHooks(
    'clusterroles',
    checks({ held: rules({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }) }),
  );
  const aggregated = role('agg', null, {
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
  });
  const err = await refusal(holder.checkWrite!(ctx(jane, ''), updated(role('agg', null), aggregated)));
  assert.equal(
    err.message,
    'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
  );
  // Without selectors it is no aggregation rule (validation refuses it later).
  await holder.checkWrite!(
    ctx(jane, ''),
    created(role('agg', null, { aggregationRule: { clusterRoleSelectors: [] } })),
  );
});
