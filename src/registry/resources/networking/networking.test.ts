import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import { defaultIngressClass, defaultNetworkPolicy } from '../../../apis/networking/v1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { ingressClasses } from './ingressclasses.js';
import { ingresses } from './ingresses.js';
import { networkPolicies } from './networkpolicies.js';
import { networkingV1Resources } from './index.js';

function object(kind: string, spec: JsonObject, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind,
    metadata: { name: 'x', ...(kind === 'IngressClass' ? {} : { namespace: 'default' }), ...extra },
    spec,
  };
}

const backend = { service: { name: 'web', port: { number: 80 } } };
const rule = (
  host: string,
  paths: JsonObject[] = [{ path: '/', pathType: 'Prefix', backend }],
): JsonObject => ({
  host,
  http: { paths },
});
const ing = (spec: JsonObject, extra: Partial<KubeObject['metadata']> = {}): KubeObject =>
  object('Ingress', spec, extra);
const validate = (o: KubeObject): string[] => messages(ingresses.strategy.validate(ctx, o));

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

test('the networking.k8s.io/v1 resources and their discovery facts', () => {
  assert.deepEqual(
    networkingV1Resources.map((r) => [
      r.info.resource,
      r.info.namespaced,
      r.info.shortNames ?? [],
      r.info.statusSubresource === true,
    ]),
    [
      ['ingressclasses', false, [], false],
      ['ingresses', true, ['ing'], true],
      ['networkpolicies', true, ['netpol'], false],
    ],
  );
});

test('a valid Ingress passes, gets generation 1 and the zero status', () => {
  const o = ing({ ingressClassName: 'nginx', rules: [rule('foo.bar.com'), rule('*.bar.com')] });
  o['status'] = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
  ingresses.strategy.prepareForCreate(ctx, o);
  assert.equal(o.metadata.generation, 1);
  assert.deepEqual(o['status'], { loadBalancer: {} });
  assert.deepEqual(validate(o), []);
  assert.deepEqual(ingresses.strategy.warningsOnCreate(ctx, o), []);
});

test('Ingress needs rules or a default backend', () => {
  assert.deepEqual(validate(ing({})), [
    'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
  ]);
  assert.deepEqual(validate(ing({ defaultBackend: backend })), []);
});

test('Ingress rule hosts: no IPs, wildcard rules, DNS subdomains', () => {
  assert.deepEqual(
    validate(ing({ rules: [rule('1.2.3.4'), rule('foo.*.com'), rule('Foo.com'), { host: 'a.com' }] })),
    [
      'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
      `spec.rules[1].host: Invalid value: "foo.*.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.rules[2].host: Invalid value: "Foo.com": ${subdomainMsg}`,
    ],
  );
});

test('Ingress paths: pathType required and supported, Exact/Prefix absolute and clean', () => {
  const paths = [
    { path: '/', backend },
    { path: '/', pathType: 'Regex', backend },
    { path: 'foo', pathType: 'Exact', backend },
    { path: '/a//b/..', pathType: 'Prefix', backend },
    { path: '/x%2Fy/./z/.', pathType: 'Exact', backend },
    { pathType: 'Prefix', backend },
    { path: 'rel', pathType: 'ImplementationSpecific', backend },
    { pathType: 'ImplementationSpecific', backend },
  ];
  assert.deepEqual(validate(ing({ rules: [rule('a.com', paths), { host: 'b.com', http: {} }] })), [
    'spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
    'spec.rules[0].http.paths[1].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    'spec.rules[0].http.paths[2].path: Invalid value: "foo": must be an absolute path',
    `spec.rules[0].http.paths[3].path: Invalid value: "/a//b/..": must not contain '//'`,
    `spec.rules[0].http.paths[3].path: Invalid value: "/a//b/..": cannot end with '/..'`,
    `spec.rules[0].http.paths[4].path: Invalid value: "/x%2Fy/./z/.": must not contain '/./'`,
    `spec.rules[0].http.paths[4].path: Invalid value: "/x%2Fy/./z/.": must not contain '%2F'`,
    `spec.rules[0].http.paths[4].path: Invalid value: "/x%2Fy/./z/.": cannot end with '/.'`,
    'spec.rules[0].http.paths[5].path: Invalid value: "": must be an absolute path',
    'spec.rules[0].http.paths[6].path: Invalid value: "rel": must be an absolute path',
    'spec.rules[1].http.paths: Required value',
  ]);
});

test('Ingress backends: service xor resource, port name xor number', () => {
  const cases: [JsonObject, string[]][] = [
    [{}, ['spec.defaultBackend: Invalid value: "": resource or service backend is required']],
    [
      { service: { name: 'a', port: { number: 1 } }, resource: { kind: 'K', name: 'n' } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
    [
      { service: { name: 'a', port: { name: 'http', number: 80 } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
    ],
    [
      { service: { port: {} } },
      [
        'spec.defaultBackend.service.name: Required value',
        'spec.defaultBackend: Required value: port name or number is required',
      ],
    ],
    [
      { service: { name: '1web', port: { number: 70000 } } },
      [
        "spec.defaultBackend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      { service: { name: 'web', port: { name: 'HTTP' } } },
      [
        'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)',
      ],
    ],
    [
      { resource: { apiGroup: 'Example', kind: '', name: 'a/b' } },
      [
        `spec.defaultBackend.resource.apiGroup: Invalid value: "Example": ${subdomainMsg}`,
        'spec.defaultBackend.resource.kind: Required value: kind is required',
        'spec.defaultBackend.resource.name: Invalid value: "a/b": may not contain \'/\'',
      ],
    ],
  ];
  for (const [b, want] of cases)
    assert.deepEqual(validate(ing({ defaultBackend: b })), want, JSON.stringify(b));
});

test('Ingress TLS hosts, secret names and the class name', () => {
  const o = ing({
    defaultBackend: backend,
    tls: [{ hosts: ['*.foo.com', 'Bad'], secretName: 'Bad_secret' }, { hosts: ['ok.com'] }],
    ingressClassName: 'Nginx',
  });
  assert.deepEqual(validate(o), [
    `spec.tls[0].hosts[1]: Invalid value: "Bad": ${subdomainMsg}`,
    `spec.tls[0].secretName: Invalid value: "Bad_secret": ${subdomainMsg}`,
    `spec.ingressClassName: Invalid value: "Nginx": ${subdomainMsg}`,
  ]);
  // Stored invalid secret names keep being accepted on update.
  const old = ing({ defaultBackend: backend, tls: [{ secretName: 'Bad_secret' }] });
  const upd = cloneJson(old);
  assert.deepEqual(messages(ingresses.strategy.validateUpdate(ctx, upd, old)), []);
  assert.deepEqual(validate(upd), [`spec.tls[0].secretName: Invalid value: "Bad_secret": ${subdomainMsg}`]);
});

test('Ingress class annotation: may accompany a matching ingressClassName (v1.27), warns alone', () => {
  const annotations = { 'kubernetes.io/ingress.class': 'nginx' };
  const both = ing({ defaultBackend: backend, ingressClassName: 'nginx' }, { annotations });
  assert.deepEqual(validate(both), []);
  assert.deepEqual(ingresses.strategy.warningsOnCreate(ctx, both), []);
  const differ = ing({ defaultBackend: backend, ingressClassName: 'other' }, { annotations });
  assert.deepEqual(validate(differ), [
    'annotations.kubernetes.io/ingress.class: Invalid value: "nginx": must match `ingressClassName` when both are specified',
  ]);
  // Only create checks it.
  assert.deepEqual(messages(ingresses.strategy.validateUpdate(ctx, differ, both)), []);
  const alone = ing({ defaultBackend: backend }, { annotations });
  assert.deepEqual(ingresses.strategy.warningsOnCreate(ctx, alone), [
    `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
  ]);
  assert.deepEqual(ingresses.strategy.warningsOnUpdate(ctx, alone, alone), []);
});

test('Ingress updates keep status and bump generation on spec changes only', () => {
  const old = ing({ defaultBackend: backend });
  ingresses.strategy.prepareForCreate(ctx, old);
  old['status'] = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
  const labelled = cloneJson(old);
  labelled.metadata.labels = { a: 'b' };
  labelled['status'] = {};
  ingresses.strategy.prepareForUpdate(ctx, labelled, old);
  assert.equal(labelled.metadata.generation, 1);
  assert.deepEqual(labelled['status'], old['status']);
  const changed = cloneJson(old);
  (changed['spec'] as JsonObject)['ingressClassName'] = 'nginx';
  ingresses.strategy.prepareForUpdate(ctx, changed, old);
  assert.equal(changed.metadata.generation, 2);
});

test('ingresses/status: only status and metadata change; addresses are checked', () => {
  const status = ingresses.statusStrategy!;
  const old = ing({ defaultBackend: backend }, { generation: 1 });
  const upd = cloneJson(old);
  upd.metadata.labels = { via: 'status' };
  (upd['spec'] as JsonObject)['ingressClassName'] = 'ignored';
  upd['status'] = {
    loadBalancer: {
      ingress: [{ ip: '300.1.1.1' }, { hostname: '1.2.3.4' }, { hostname: 'lb.example.com', ip: '::1' }],
    },
  };
  status.prepareForUpdate(ctx, upd, old);
  assert.deepEqual(upd['spec'], old['spec']);
  assert.deepEqual(upd.metadata.labels, { via: 'status' });
  assert.deepEqual(messages(status.validateUpdate(ctx, upd, old)), [
    'status.loadBalancer.ingress[0].ip: Invalid value: "300.1.1.1": must be a valid IP address',
    'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
  ]);
});

const ic = (spec: JsonObject): KubeObject => {
  const o = object('IngressClass', spec);
  defaultIngressClass(o);
  return o;
};
const validateIC = (o: KubeObject): string[] => messages(ingressClasses.strategy.validate(ctx, o));

test('IngressClass controller: required, domain-prefixed path, at most 250 bytes', () => {
  assert.deepEqual(validateIC(ic({ controller: 'example.com/ingress' })), []);
  assert.deepEqual(validateIC(ic({})), ['spec.controller: Required value']);
  assert.deepEqual(validateIC(ic({ controller: 'nginx' })), [
    'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
  ]);
  assert.deepEqual(validateIC(ic({ controller: 'Acme.io/a b' })), [
    `spec.controller: Invalid value: "Acme.io": ${subdomainMsg}`,
    "spec.controller: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
  ]);
  assert.deepEqual(validateIC(ic({ controller: `example.com/${'x'.repeat(240)}` })), [
    'spec.controller: Too long: must have at most 250 bytes',
  ]);
});

test('IngressClass parameters: reference fields and scope rules', () => {
  const params = (p: JsonObject): string[] => validateIC(ic({ controller: 'example.com/c', parameters: p }));
  assert.deepEqual(params({ kind: 'Config', name: 'c' }), []);
  assert.deepEqual(params({ kind: 'Config', name: 'c', scope: 'Namespace', namespace: 'ns' }), []);
  assert.deepEqual(params({ scope: 'Namespace' }), [
    'spec.parameters.kind: Required value: kind is required',
    'spec.parameters.name: Required value: name is required',
    "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
  ]);
  assert.deepEqual(params({ kind: 'K', name: 'n', scope: 'Namespace', namespace: 'Bad.ns' }), [
    "spec.parameters.namespace: Invalid value: \"Bad.ns\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.deepEqual(params({ kind: 'K', name: 'n', namespace: 'ns' }), [
    "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
  ]);
  assert.deepEqual(params({ kind: 'K', name: 'n', scope: 'Global', namespace: 'ns' }), [
    'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
  ]);
});

test('IngressClass controller is immutable; spec changes bump generation', () => {
  const old = ic({ controller: 'example.com/a' });
  ingressClasses.strategy.prepareForCreate(ctx, old);
  assert.equal(old.metadata.generation, 1);
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['controller'] = 'example.com/b';
  ingressClasses.strategy.prepareForUpdate(ctx, upd, old);
  assert.equal(upd.metadata.generation, 2);
  assert.deepEqual(messages(ingressClasses.strategy.validateUpdate(ctx, upd, old)), [
    'spec.controller: Invalid value: "example.com/b": field is immutable',
  ]);
  assert.equal(ingressClasses.strategy.namespaced, false);
});

const np = (spec: JsonObject): KubeObject => {
  const o = object('NetworkPolicy', { podSelector: {}, ...spec });
  defaultNetworkPolicy(o);
  return o;
};
const validateNP = (o: KubeObject): string[] => messages(networkPolicies.strategy.validate(ctx, o));

test('NetworkPolicy ports: protocol, port numbers and names, endPort rules', () => {
  const o = np({
    ingress: [
      {
        ports: [
          { protocol: 'ICMP', port: 0 },
          { port: 100, endPort: 50 },
          { port: 1000, endPort: 70000 },
          { port: 'http', endPort: 90 },
          { endPort: 90 },
          { port: 'Web--' },
          { port: 80, endPort: 8080 },
        ],
      },
    ],
  });
  assert.deepEqual(validateNP(o), [
    'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
    'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'spec.ingress[0].ports[1].endPort: Invalid value: 100: must be greater than or equal to `port`',
    'spec.ingress[0].ports[2].endPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.ingress[0].ports[3].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
    'spec.ingress[0].ports[4].endPort: Invalid value: 90: may not be specified when `port` is not specified',
    'spec.ingress[0].ports[5].port: Invalid value: "Web--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'spec.ingress[0].ports[5].port: Invalid value: "Web--": must not contain consecutive hyphens',
    'spec.ingress[0].ports[5].port: Invalid value: "Web--": must not begin or end with a hyphen',
  ]);
});

test('NetworkPolicy peers and ipBlocks', () => {
  const o = np({
    egress: [
      {
        to: [
          {},
          { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} },
          { ipBlock: { cidr: '' } },
          { ipBlock: { cidr: '10.0.0.0/33' } },
          {
            ipBlock: {
              cidr: '10.0.0.0/16',
              except: ['10.0.1.0/24', '10.1.0.0/24', '10.0.0.0/16', 'x', '10.9.0.0/8'],
            },
          },
          { namespaceSelector: { matchLabels: { 'bad key!': 'v' } }, podSelector: { matchExpressions: [] } },
        ],
      },
    ],
  });
  assert.deepEqual(validateNP(o), [
    'spec.egress[0].to[0]: Required value: must specify a peer',
    'spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer',
    'spec.egress[0].to[2].ipBlock.cidr: Required value',
    'spec.egress[0].to[3].ipBlock.cidr: Invalid value: "10.0.0.0/33": not a valid CIDR',
    'spec.egress[0].to[4].ipBlock.except[1]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
    'spec.egress[0].to[4].ipBlock.except[2]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
    'spec.egress[0].to[4].ipBlock.except[3]: Invalid value: "x": not a valid CIDR',
    "spec.egress[0].to[5].namespaceSelector.matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
});

test('NetworkPolicy policyTypes', () => {
  assert.deepEqual(validateNP(np({ policyTypes: ['Ingress', 'Egress', 'Ingress'] })), [
    'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
  ]);
  assert.deepEqual(validateNP(np({ policyTypes: ['Ingress', 'egress'] })), [
    'spec.policyTypes[1]: Unsupported value: "egress": supported values: "Ingress", "Egress"',
  ]);
});

test('NetworkPolicy updates: spec checked twice, stored bad selector values tolerated, generation', () => {
  const bad = { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] };
  const fresh = np({ podSelector: bad });
  const valueMsg =
    "spec.podSelector.matchExpressions[0].values[0]: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  assert.deepEqual(validateNP(fresh), [valueMsg]);
  const old = cloneJson(fresh);
  networkPolicies.strategy.prepareForCreate(ctx, old);
  assert.equal(old.metadata.generation, 1);
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['policyTypes'] = ['Foo'];
  networkPolicies.strategy.prepareForUpdate(ctx, upd, old);
  assert.equal(upd.metadata.generation, 2);
  assert.deepEqual(messages(networkPolicies.strategy.validateUpdate(ctx, upd, old)), [
    'spec.policyTypes[0]: Unsupported value: "Foo": supported values: "Ingress", "Egress"',
    'spec.policyTypes[0]: Unsupported value: "Foo": supported values: "Ingress", "Egress"',
  ]);
});

test('NetworkPolicy status without the NetworkPolicyStatus gate: kept on create, sticky once it has conditions', () => {
  const o = np({});
  const conditions = [
    { type: 'Accepted', status: 'True', reason: 'R', message: '', lastTransitionTime: null },
  ];
  o['status'] = { conditions };
  networkPolicies.strategy.prepareForCreate(ctx, o);
  assert.deepEqual(o['status'], { conditions });
  const upd = cloneJson(o);
  upd['status'] = {};
  networkPolicies.strategy.prepareForUpdate(ctx, upd, o);
  assert.deepEqual(upd['status'], { conditions });
  const plain = np({});
  const withStatus = cloneJson(plain);
  withStatus['status'] = { conditions };
  networkPolicies.strategy.prepareForUpdate(ctx, withStatus, plain);
  assert.deepEqual(withStatus['status'], { conditions });
  assert.equal(networkPolicies.statusStrategy, undefined);
});
