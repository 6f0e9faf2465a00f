/** Audit policy loading, validation and matching (AM-17), as k8s.io/apiserver v0.27. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditAttributes } from './policy.js';
import { evaluatePolicy, parseAuditPolicy } from './policy.js';

const header = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';

function attrs(over: Partial<AuditAttributes>): AuditAttributes {
  return {
    user: { name: 'alice', groups: ['devs', 'system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/pods/p',
    namespace: 'ns',
    apiGroup: '',
    resource: 'pods',
    subresource: '',
    name: 'p',
    ...over,
  };
}

const policy = parseAuditPolicy(`${header}omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:kube-proxy"]
  - level: None
    userGroups: ["system:nodes"]
    verbs: [get]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets"]
  - level: Request
    resources:
      - group: ""
        resources: ["pods/log", "*/status"]
  - level: RequestResponse
    resources:
      - group: "apps"
        resources: ["deployments/*"]
  - level: RequestResponse
    omitStages: [ResponseStarted]
    omitManagedFields: true
    resources:
      - group: ""
        resources: ["configmaps"]
        resourceNames: ["special"]
  - level: Metadata
    namespaces: [""]
  - level: Request
    nonResourceURLs: ["/healthz*", "/version"]
  - level: Metadata
    namespaces: ["kube-system"]
`);

test('AM-17: the first matching rule decides; users, groups and verbs narrow a rule', () => {
  assert.equal(
    evaluatePolicy(policy, attrs({ user: { name: 'system:kube-proxy', groups: [] } })).level,
    'None',
  );
  assert.equal(
    evaluatePolicy(policy, attrs({ user: { name: 'n', groups: ['system:nodes'] }, resource: 'secrets' }))
      .level,
    'None',
  );
  // The nodes rule is for get only: a list by a node falls through to the secrets rule.
  assert.equal(
    evaluatePolicy(
      policy,
      attrs({ user: { name: 'n', groups: ['system:nodes'] }, verb: 'list', resource: 'secrets' }),
    ).level,
    'Metadata',
  );
  // No match: None, with the policy's stages.
  const none = evaluatePolicy(policy, attrs({ namespace: 'other', resource: 'services' }));
  assert.deepEqual(none, { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: false });
});

test('AM-17: resources match subresources, */status, resource/*, resourceNames and group', () => {
  assert.equal(evaluatePolicy(policy, attrs({ subresource: 'log' })).level, 'Request');
  assert.equal(
    evaluatePolicy(policy, attrs({ resource: 'services', subresource: 'status' })).level,
    'Request',
  );
  // pods alone is not pods/log; falls to no rule (namespace ns).
  assert.equal(evaluatePolicy(policy, attrs({})).level, 'None');
  assert.equal(
    evaluatePolicy(policy, attrs({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).level,
    'RequestResponse',
  );
  // deployments/* needs a subresource-less match of the resource: the collection itself matches too.
  assert.equal(
    evaluatePolicy(policy, attrs({ apiGroup: 'apps', resource: 'deployments' })).level,
    'RequestResponse',
  );
  // The same resource in another group does not match.
  assert.equal(evaluatePolicy(policy, attrs({ apiGroup: 'x.io', resource: 'secrets' })).level, 'None');
  const special = evaluatePolicy(policy, attrs({ resource: 'configmaps', name: 'special' }));
  assert.equal(special.level, 'RequestResponse');
  assert.deepEqual([...special.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
  assert.equal(special.omitManagedFields, true);
  assert.equal(evaluatePolicy(policy, attrs({ resource: 'configmaps', name: 'other' })).level, 'None');
});

test('AM-17: namespaces "" means cluster-scoped; nonResourceURLs with a * suffix', () => {
  assert.equal(
    evaluatePolicy(policy, attrs({ namespace: '', resource: 'nodes', name: 'n1' })).level,
    'Metadata',
  );
  assert.equal(
    evaluatePolicy(policy, attrs({ namespace: 'kube-system', resource: 'services' })).level,
    'Metadata',
  );
  const path = (p: string): AuditAttributes =>
    attrs({ isResourceRequest: false, path: p, namespace: '', resource: '', name: '', verb: 'get' });
  assert.equal(evaluatePolicy(policy, path('/healthz')).level, 'Request');
  assert.equal(evaluatePolicy(policy, path('/healthz/etcd')).level, 'Request');
  assert.equal(evaluatePolicy(policy, path('/version')).level, 'Request');
  assert.equal(evaluatePolicy(policy, path('/version/x')).level, 'None');
  // A resource rule never matches a path, nor a path rule a resource.
  assert.equal(evaluatePolicy(policy, path('/api')).level, 'None');
});

test('AM-17: a request without a user (failed authentication) matches no user or group rule', () => {
  const p = parseAuditPolicy(`${header}rules:
  - level: RequestResponse
    userGroups: ["system:unauthenticated"]
  - level: Metadata
`);
  const anonymous: AuditAttributes = { ...attrs({}) };
  delete (anonymous as { user?: unknown }).user;
  assert.equal(evaluatePolicy(p, anonymous).level, 'Metadata');
});

test('AM-17: omitManagedFields: the policy default, a rule overrides it', () => {
  const p = parseAuditPolicy(`${header}omitManagedFields: true
rules:
  - level: Request
    resources: [{group: "", resources: [secrets]}]
    omitManagedFields: false
  - level: Request
`);
  assert.equal(evaluatePolicy(p, attrs({ resource: 'secrets' })).omitManagedFields, false);
  assert.equal(evaluatePolicy(p, attrs({})).omitManagedFields, true);
});

test('AM-17: JSON policies load too', () => {
  const p = parseAuditPolicy(
    '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}',
  );
  assert.equal(evaluatePolicy(p, attrs({})).level, 'Metadata');
});

test('AM-17: validation errors as upstream', () => {
  const bad = (body: string): string => {
    try {
      parseAuditPolicy(`${header}${body}`);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };
  assert.equal(bad('rules:\n  - users: [a]\n'), 'rules[0].level: Required value');
  assert.equal(
    bad('rules:\n  - level: Everything\n'),
    'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
  );
  assert.equal(
    bad('rules:\n  - level: None\n    omitStages: [Sometimes]\n'),
    'rules[0].omitStages[0]: Invalid value: "Sometimes": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
  );
  assert.equal(
    bad('omitStages: [Never]\nrules:\n  - level: None\n'),
    'omitStages[0]: Invalid value: "Never": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
  );
  assert.equal(
    bad('rules:\n  - level: None\n    nonResourceURLs: [healthz]\n'),
    `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
  );
  assert.equal(
    bad('rules:\n  - level: None\n    nonResourceURLs: ["/a*b"]\n'),
    `rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
  );
  assert.equal(
    bad('rules:\n  - level: None\n    nonResourceURLs: ["/a"]\n    namespaces: [x]\n'),
    'rules[0].nonResourceURLs: Invalid value: []string{"/a"}: rules cannot apply to both regular resources and non-resource URLs',
  );
  assert.equal(
    bad('rules:\n  - level: None\n    resources: [{group: "rbac.authorization.k8s.io/v1"}]\n'),
    "rules[0].resources.group: Invalid value: \"rbac.authorization.k8s.io/v1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  );
  assert.equal(
    bad('rules:\n  - level: None\n    resources: [{group: "", resourceNames: [x]}]\n'),
    'rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource',
  );
  assert.equal(
    bad('rules:\n  - users: [a]\n  - level: Foo\n'),
    '[rules[0].level: Required value, rules[1].level: Unsupported value: "Foo": supported values: "None", "Metadata", "Request", "RequestResponse"]',
  );
  assert.equal(bad('rules: []\n'), 'loaded illegal policy with 0 rules');
  assert.match(
    (() => {
      try {
        parseAuditPolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n');
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    })(),
    /unknown group version field audit\.k8s\.io\/v1beta1, Kind=Policy in policy/,
  );
});

test('AM-17: unknown fields fall back to lenient decoding with a warning', () => {
  const warnings: string[] = [];
  const p = parseAuditPolicy(`${header}rules:\n  - level: Metadata\n    levle: None\n`, (w) =>
    warnings.push(w),
  );
  assert.equal(p.rules.length, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /falling back to lenient decoding: .*unknown field "rules\[0\]\.levle"/);
});
