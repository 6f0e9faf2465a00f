// Unit tests: webhook and policy matching (rules, selectors, exclusions, matchPolicy, conditions).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { admissionActivation, admissionRequestJson } from '../../cel/admission/index.js';
import { attrsOf, testDeps } from '../testing/fake-admission-deps.js';
import { matchCriteria, matchRequest, type EquivalentResources } from './criteria.js';
import { compileMatchConditions, evaluateMatchConditions } from './match-conditions.js';
import { ruleMatches } from './rules.js';
import { loadCelAdmission } from '../../cel/admission/load.js';

// Callers with match conditions load the CEL engine first; so do these tests.
before(() => loadCelAdmission());

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels: { app: 'a' } } };
const podAttrs = attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', object: pod });
const self = { group: '', version: 'v1', resource: 'pods' };
const noEquivalents: EquivalentResources = () => [];

test('rules: operations, groups, versions, resource/subresource wildcards and scope', () => {
  const rule = (o: Record<string, unknown>) => ({
    operations: ['CREATE'],
    apiGroups: [''],
    apiVersions: ['v1'],
    resources: ['pods'],
    ...o,
  });
  assert.equal(ruleMatches(rule({}), podAttrs, self), true);
  assert.equal(ruleMatches(rule({ operations: ['UPDATE'] }), podAttrs, self), false);
  assert.equal(ruleMatches(rule({ operations: ['*'] }), podAttrs, self), true);
  assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), podAttrs, self), false);
  assert.equal(ruleMatches(rule({ apiVersions: ['*'] }), podAttrs, self), true);
  assert.equal(ruleMatches(rule({ resources: ['*'] }), podAttrs, self), true);
  // `pods/*` covers the pods themselves too (upstream: a `*` subresource matches the empty one).
  assert.equal(ruleMatches(rule({ resources: ['pods/*'] }), podAttrs, self), true);
  assert.equal(ruleMatches(rule({ resources: ['pods/status'] }), podAttrs, self), false);
  const status = { ...podAttrs, subresource: 'status' };
  assert.equal(ruleMatches(rule({}), status, self), false);
  assert.equal(ruleMatches(rule({ resources: ['pods/*'] }), status, self), true);
  assert.equal(ruleMatches(rule({ resources: ['*/status'] }), status, self), true);
  assert.equal(ruleMatches(rule({ resources: ['*/*'] }), status, self), true);
  assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), podAttrs, self), true);
  assert.equal(ruleMatches(rule({ scope: 'Cluster' }), podAttrs, self), false);
  const ns = attrsOf({ resource: 'namespaces', kind: 'Namespace', name: 'x', namespace: 'x' });
  const nsResource = { group: '', version: 'v1', resource: 'namespaces' };
  assert.equal(ruleMatches(rule({ resources: ['namespaces'], scope: 'Cluster' }), ns, nsResource), true);
  assert.equal(ruleMatches(rule({ resources: ['namespaces'], scope: 'Namespaced' }), ns, nsResource), false);
});

test('criteria: selectors, exclusions, resource names, equivalent versions', async () => {
  const deps = testDeps({
    objects: [
      {
        group: '',
        resource: 'namespaces',
        object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { env: 'prod' } } },
      },
    ],
  });
  const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
  const match = (source: Record<string, unknown>, a = podAttrs, eq = noEquivalents) =>
    matchRequest(
      matchCriteria(source as never, { rulesKey: 'resourceRules', emptyRulesMatchAll: false }),
      a,
      deps.lookup,
      eq,
    );
  assert.equal((await match({ resourceRules: rules })).matches, true);
  assert.equal(
    (await match({ resourceRules: rules, namespaceSelector: { matchLabels: { env: 'dev' } } })).matches,
    false,
  );
  assert.equal(
    (await match({ resourceRules: rules, namespaceSelector: { matchLabels: { env: 'prod' } } })).matches,
    true,
  );
  assert.equal(
    (await match({ resourceRules: rules, objectSelector: { matchLabels: { app: 'b' } } })).matches,
    false,
  );
  assert.equal((await match({ resourceRules: rules, excludeResourceRules: rules })).matches, false);
  assert.equal((await match({ resourceRules: [{ ...rules[0], resourceNames: ['other'] }] })).matches, false);
  assert.equal((await match({ resourceRules: [{ ...rules[0], resourceNames: ['p'] }] })).matches, true);
  // A namespace that does not exist is a 404 for a request the rules cover.
  const elsewhere = attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'gone', object: pod });
  const missing = await match(
    { resourceRules: rules, namespaceSelector: { matchLabels: { env: 'prod' } } },
    elsewhere,
  );
  assert.equal(missing.matches, false);
  assert.equal(!missing.matches && missing.error?.message, 'namespaces "gone" not found');
  // ... and no error for one they do not.
  const uncovered = await match(
    {
      resourceRules: [{ ...rules[0], apiGroups: ['apps'] }],
      namespaceSelector: { matchLabels: { env: 'prod' } },
    },
    elsewhere,
  );
  assert.deepEqual(uncovered, { matches: false });
  // Equivalent: a rule naming another served version matches, and says which.
  const hpa = attrsOf({
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespace: 'ns',
    object: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } },
  });
  const v1Rule = [
    {
      operations: ['CREATE'],
      apiGroups: ['autoscaling'],
      apiVersions: ['v1'],
      resources: ['horizontalpodautoscalers'],
    },
  ];
  const both: EquivalentResources = () => [
    {
      resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
    },
    {
      resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
      kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    },
  ];
  const eq = await match({ resourceRules: v1Rule }, hpa, both);
  assert.equal(eq.matches && eq.resource.version, 'v1');
  assert.equal((await match({ resourceRules: v1Rule, matchPolicy: 'Exact' }, hpa, both)).matches, false);
});

test('match conditions: false skips, errors follow the failure policy, names the failed one', () => {
  const conditions = compileMatchConditions(
    [
      { name: 'is-a', expression: "object.metadata.labels.app == 'a'" },
      { name: 'breaks', expression: 'object.spec.nope == 1' },
    ],
    { hasParams: false, hasAuthorizer: true },
  );
  const activation = admissionActivation({ attributes: podAttrs, request: admissionRequestJson(podAttrs) });
  assert.deepEqual(evaluateMatchConditions(conditions, activation, 'Fail'), {
    matches: false,
    error: "expression 'object.spec.nope == 1' resulted in error: no such key: spec",
  });
  assert.deepEqual(evaluateMatchConditions(conditions, activation, 'Ignore'), { matches: false });
  const b = { ...pod, metadata: { ...pod.metadata, labels: { app: 'b' } } };
  const other = admissionActivation({
    attributes: { ...podAttrs, object: b },
    request: admissionRequestJson(podAttrs),
  });
  assert.deepEqual(evaluateMatchConditions(conditions, other, 'Fail'), {
    matches: false,
    failedCondition: 'is-a',
  });
});

test('a request made at another served version matches as that version; its request fields say so', async () => {
  const deps = testDeps();
  const hpa = {
    ...attrsOf({
      group: 'autoscaling',
      version: 'v2',
      resource: 'horizontalpodautoscalers',
      kind: 'HorizontalPodAutoscaler',
      namespace: 'ns',
      object: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } },
    }),
    requestVersion: { group: 'autoscaling', version: 'v1' },
  };
  const rule = (version: string) => [
    {
      operations: ['CREATE'],
      apiGroups: ['autoscaling'],
      apiVersions: [version],
      resources: ['horizontalpodautoscalers'],
    },
  ];
  const both: EquivalentResources = () =>
    ['v2', 'v1'].map((version) => ({
      resource: { group: 'autoscaling', version, resource: 'horizontalpodautoscalers' },
      kind: { group: 'autoscaling', version, kind: 'HorizontalPodAutoscaler' },
    }));
  const match = (source: Record<string, unknown>) =>
    matchRequest(
      matchCriteria(source as never, { rulesKey: 'rules', emptyRulesMatchAll: false }),
      hpa,
      deps.lookup,
      both,
    );
  const v1 = await match({ rules: rule('v1'), matchPolicy: 'Exact' });
  assert.equal(v1.matches && v1.resource.version, 'v1');
  assert.equal((await match({ rules: rule('v2'), matchPolicy: 'Exact' })).matches, false);
  const v2 = await match({ rules: rule('v2') });
  assert.equal(v2.matches && v2.kind.version, 'v2');
  const request = admissionRequestJson(hpa, v2.matches ? v2 : undefined);
  assert.deepEqual(request['kind'], { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
  assert.deepEqual(request['requestKind'], {
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
  });
});
