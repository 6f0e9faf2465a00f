/**
 * The resources the fuzz cases aim at, each with a valid object to start from: built-in kinds of
 * the core and grouped APIs and a custom resource whose CRD has a structural schema with CEL
 * rules, status and scale.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMap = { [key: string]: Json };

export interface Target {
  readonly resource: string;
  /** The collection path, in the `default` namespace when namespaced. */
  readonly collection: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** A valid object without metadata. */
  readonly valid: JsonMap;
  /** Subresources worth hitting on an object of this resource. */
  readonly subresources: readonly string[];
  /** Whether a protobuf body is spoken (built-in kinds). */
  readonly protobuf: boolean;
}

const container: JsonMap = {
  name: 'c',
  image: 'nginx:1.25',
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  env: [{ name: 'A', value: 'b' }],
  resources: { limits: { cpu: '100m', memory: '64Mi' } },
};
const podSpec: JsonMap = { containers: [container], restartPolicy: 'Always' };
const template: JsonMap = { metadata: { labels: { app: 'fz' } }, spec: podSpec };

export const crd: JsonMap = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'fuzzers.fuzz.example.com' },
  spec: {
    group: 'fuzz.example.com',
    scope: 'Namespaced',
    names: { plural: 'fuzzers', singular: 'fuzzer', kind: 'Fuzzer', listKind: 'FuzzerList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: 'self.replicas <= 100', message: 'too many' }],
                properties: {
                  replicas: { type: 'integer', minimum: 0, maximum: 1000, default: 1 },
                  name: { type: 'string', maxLength: 63, pattern: '^[a-z]+$' },
                  mode: { type: 'string', enum: ['a', 'b'] },
                  ratio: { type: 'number' },
                  when: { type: 'string', format: 'date-time' },
                  tags: {
                    type: 'array',
                    'x-kubernetes-list-type': 'set',
                    items: { type: 'string' },
                  },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['port'],
                    items: {
                      type: 'object',
                      required: ['port'],
                      properties: { port: { type: 'integer' }, name: { type: 'string' } },
                    },
                  },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  anything: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object' },
                  either: { 'x-kubernetes-int-or-string': true },
                  embedded: {
                    type: 'object',
                    'x-kubernetes-embedded-resource': true,
                    'x-kubernetes-preserve-unknown-fields': true,
                  },
                },
              },
              status: {
                type: 'object',
                properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
              },
            },
          },
        },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
      },
    ],
  },
};

export const targets: readonly Target[] = [
  {
    resource: 'configmaps',
    collection: '/api/v1/namespaces/default/configmaps',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    valid: { data: { a: 'b', 'c.txt': 'line\n' }, binaryData: { bin: 'AAEC' } },
    subresources: [],
    protobuf: true,
  },
  {
    resource: 'secrets',
    collection: '/api/v1/namespaces/default/secrets',
    apiVersion: 'v1',
    kind: 'Secret',
    valid: { type: 'Opaque', stringData: { a: 'b' }, data: { c: 'ZA==' } },
    subresources: [],
    protobuf: true,
  },
  {
    resource: 'pods',
    collection: '/api/v1/namespaces/default/pods',
    apiVersion: 'v1',
    kind: 'Pod',
    valid: { spec: podSpec },
    subresources: [
      'status',
      'binding',
      'eviction',
      'log',
      'exec',
      'attach',
      'portforward',
      'proxy',
      'ephemeralcontainers',
    ],
    protobuf: true,
  },
  {
    resource: 'services',
    collection: '/api/v1/namespaces/default/services',
    apiVersion: 'v1',
    kind: 'Service',
    valid: { spec: { selector: { app: 'fz' }, ports: [{ port: 80, targetPort: 8080, name: 'http' }] } },
    subresources: ['status', 'proxy'],
    protobuf: true,
  },
  {
    resource: 'serviceaccounts',
    collection: '/api/v1/namespaces/default/serviceaccounts',
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    valid: { automountServiceAccountToken: false },
    subresources: ['token'],
    protobuf: true,
  },
  {
    resource: 'deployments',
    collection: '/apis/apps/v1/namespaces/default/deployments',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    valid: {
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'fz' } },
        template,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      },
    },
    subresources: ['status', 'scale'],
    protobuf: true,
  },
  {
    resource: 'jobs',
    collection: '/apis/batch/v1/namespaces/default/jobs',
    apiVersion: 'batch/v1',
    kind: 'Job',
    valid: { spec: { template: { ...template, spec: { ...podSpec, restartPolicy: 'Never' } } } },
    subresources: ['status'],
    protobuf: true,
  },
  {
    resource: 'leases',
    collection: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    valid: {
      spec: {
        holderIdentity: 'h',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-01T00:00:00.000000Z',
        leaseTransitions: 0,
      },
    },
    subresources: [],
    protobuf: true,
  },
  {
    resource: 'networkpolicies',
    collection: '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies',
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    valid: {
      spec: {
        podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['fz'] }] },
        ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }],
      },
    },
    subresources: [],
    protobuf: true,
  },
  {
    resource: 'clusterroles',
    collection: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    valid: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
    subresources: [],
    protobuf: true,
  },
  {
    resource: 'fuzzers',
    collection: '/apis/fuzz.example.com/v1/namespaces/default/fuzzers',
    apiVersion: 'fuzz.example.com/v1',
    kind: 'Fuzzer',
    valid: {
      spec: {
        replicas: 2,
        name: 'abc',
        mode: 'a',
        ratio: 0.5,
        when: '2024-01-01T00:00:00Z',
        tags: ['x', 'y'],
        ports: [{ port: 80, name: 'http' }],
        labels: { a: 'b' },
        anything: { deep: { er: [1, 2, { x: null }] } },
        either: 'str',
        embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e' } },
      },
    },
    subresources: ['status', 'scale'],
    protobuf: false,
  },
];

/** The objects the cases update, patch and hit subresources of: one per target. */
export function existingName(t: Target): string {
  return `fz-${t.resource}`;
}

/** A valid object of `t` named `name`. */
export function validObject(t: Target, name: string): JsonMap {
  return { apiVersion: t.apiVersion, kind: t.kind, metadata: { name, labels: { app: 'fz' } }, ...t.valid };
}

/** A computed endpoint (review, token request) with a valid body. */
export interface Review {
  readonly path: string;
  readonly valid: JsonMap;
}

export const reviews: readonly Review[] = [
  {
    path: '/apis/authentication.k8s.io/v1/tokenreviews',
    valid: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'abc.def.ghi', audiences: ['x'] },
    },
  },
  {
    path: '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews',
    valid: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
  },
  {
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    valid: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'alice',
        groups: ['g'],
        extra: { 'scopes.x': ['a'] },
        resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods', name: 'p' },
      },
    },
  },
  {
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    valid: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    },
  },
  {
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    valid: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
    },
  },
  {
    path: '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews',
    valid: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'default' },
      spec: {
        user: 'bob',
        resourceAttributes: { namespace: 'default', verb: 'list', group: 'apps', resource: 'deployments' },
      },
    },
  },
];

/** Paths answered without a resource: discovery, OpenAPI, health, version. */
export const documents: readonly string[] = [
  '/api',
  '/api/v1',
  '/apis',
  '/apis/apps',
  '/apis/apps/v1',
  '/apis/fuzz.example.com',
  '/apis/fuzz.example.com/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/openapi/v3/apis/apps/v1',
  '/openapi/v3/apis/fuzz.example.com/v1',
  '/version',
  '/healthz',
  '/readyz',
  '/livez',
  '/readyz/ping',
  '/healthz/etcd',
  '/metrics',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
];
