/**
 * Invalid core/v1 objects and kube-apiserver v1.27's exact field errors (upstream
 * pkg/apis/core/validation, release-1.27), one row each.
 */
import { runTable, vary } from './support.js';
import type { Manifest, Row } from './support.js';

const ns = '/api/v1/namespaces/invalid';
const pods = `${ns}/pods`;

const dns1123Label = (v: string): string =>
  `Invalid value: "${v}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
const dns1123Subdomain = (v: string): string =>
  `Invalid value: "${v}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const qualifiedNamePart =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const portRange = 'must be between 1 and 65535, inclusive';
const goQuantity = (value: number, s: string): string =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"DecimalSI"}`;

function pod(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...meta },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  };
}

function podWith(
  name: string,
  container: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): Manifest {
  return pod(name, { containers: [{ name: 'c', image: 'nginx', ...container }], ...spec });
}

const P = { kind: 'Pod', path: pods } as const;

const podRows: Row[] = [
  {
    ...P,
    name: 'no containers',
    body: pod('p-nocontainers', { containers: [] }),
    causes: [['spec.containers', 'FieldValueRequired', 'Required value']],
  },
  {
    ...P,
    name: 'container name and image missing',
    body: pod('p-noname', { containers: [{}] }),
    causes: [
      ['spec.containers[0].name', 'FieldValueRequired', 'Required value'],
      ['spec.containers[0].image', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    ...P,
    name: 'container name not a DNS label',
    body: pod('p-badname', { containers: [{ name: 'Bad_Name', image: 'nginx' }] }),
    causes: [['spec.containers[0].name', 'FieldValueInvalid', dns1123Label('Bad_Name')]],
  },
  {
    ...P,
    name: 'duplicate container names',
    body: pod('p-dupname', {
      containers: [
        { name: 'c', image: 'a' },
        { name: 'c', image: 'b' },
      ],
    }),
    causes: [['spec.containers[1].name', 'FieldValueDuplicate', 'Duplicate value: "c"']],
  },
  {
    ...P,
    name: 'pod name not a DNS subdomain',
    body: pod('Bad_Pod'),
    causes: [['metadata.name', 'FieldValueInvalid', dns1123Subdomain('Bad_Pod')]],
  },
  {
    ...P,
    name: 'restartPolicy unsupported',
    body: pod('p-restart', { restartPolicy: 'Sometimes' }),
    causes: [
      [
        'spec.restartPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    ],
  },
  {
    ...P,
    name: 'dnsPolicy unsupported',
    body: pod('p-dns', { dnsPolicy: 'Foo' }),
    causes: [
      [
        'spec.dnsPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Foo": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
  },
  {
    ...P,
    name: 'imagePullPolicy unsupported',
    body: podWith('p-pull', { imagePullPolicy: 'Sometimes' }),
    causes: [
      [
        'spec.containers[0].imagePullPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
  },
  {
    ...P,
    name: 'activeDeadlineSeconds zero',
    body: pod('p-deadline', { activeDeadlineSeconds: 0 }),
    causes: [
      [
        'spec.activeDeadlineSeconds',
        'FieldValueInvalid',
        'Invalid value: 0: must be between 1 and 2147483647, inclusive',
      ],
    ],
  },
  {
    ...P,
    name: 'container port zero and unsupported protocol',
    body: podWith('p-ports', { ports: [{ containerPort: 0, protocol: 'FOO' }] }),
    causes: [
      ['spec.containers[0].ports[0].containerPort', 'FieldValueRequired', 'Required value'],
      [
        'spec.containers[0].ports[0].protocol',
        'FieldValueNotSupported',
        'Unsupported value: "FOO": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
  },
  {
    ...P,
    name: 'env var without a name',
    body: podWith('p-env', { env: [{ value: 'x' }] }),
    causes: [['spec.containers[0].env[0].name', 'FieldValueRequired', 'Required value']],
  },
  {
    ...P,
    name: 'negative resource limit',
    body: podWith('p-neglimit', { resources: { limits: { cpu: '-1' } } }),
    causes: [
      [
        'spec.containers[0].resources.limits[cpu]',
        'FieldValueInvalid',
        'Invalid value: "-1": must be greater than or equal to 0',
      ],
      // v1 defaulting copies a pod container's limits into its unset requests.
      [
        'spec.containers[0].resources.requests[cpu]',
        'FieldValueInvalid',
        'Invalid value: "-1": must be greater than or equal to 0',
      ],
    ],
  },
  {
    ...P,
    name: 'request above limit',
    body: podWith('p-reqlimit', { resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }),
    causes: [
      [
        'spec.containers[0].resources.requests',
        'FieldValueInvalid',
        'Invalid value: "2": must be less than or equal to cpu limit',
      ],
    ],
  },
  // probes
  {
    ...P,
    name: 'readiness probe without a handler',
    body: podWith('p-probe-nohandler', { readinessProbe: { periodSeconds: 5 } }),
    causes: [
      [
        'spec.containers[0].readinessProbe',
        'FieldValueRequired',
        'Required value: must specify a handler type',
      ],
    ],
  },
  {
    ...P,
    name: 'liveness probe with two handlers',
    body: podWith('p-probe-two', { livenessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } }),
    causes: [
      [
        'spec.containers[0].livenessProbe.tcpSocket',
        'FieldValueForbidden',
        'Forbidden: may not specify more than 1 handler type',
      ],
    ],
  },
  {
    ...P,
    name: 'liveness probe successThreshold must be 1 and periodSeconds nonnegative',
    body: podWith('p-probe-success', {
      livenessProbe: { exec: { command: ['true'] }, successThreshold: 2, periodSeconds: -1 },
    }),
    causes: [
      [
        'spec.containers[0].livenessProbe.periodSeconds',
        'FieldValueInvalid',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'spec.containers[0].livenessProbe.successThreshold',
        'FieldValueInvalid',
        'Invalid value: 2: must be 1',
      ],
    ],
  },
  {
    ...P,
    name: 'readiness probe may not set terminationGracePeriodSeconds',
    body: podWith('p-probe-tgps', {
      readinessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 },
    }),
    causes: [
      [
        'spec.containers[0].readinessProbe.terminationGracePeriodSeconds',
        'FieldValueInvalid',
        'Invalid value: 10: must not be set for readinessProbes',
      ],
    ],
  },
  {
    ...P,
    name: 'grpc probe port out of range',
    body: podWith('p-probe-grpc', { livenessProbe: { grpc: { port: 70000 } } }),
    causes: [
      [
        'spec.containers[0].livenessProbe.grpc.port',
        'FieldValueInvalid',
        `Invalid value: 70000: ${portRange}`,
      ],
    ],
  },
  {
    ...P,
    name: 'httpGet probe port zero',
    body: podWith('p-probe-http', { startupProbe: { httpGet: { port: 0 } } }),
    causes: [
      ['spec.containers[0].startupProbe.httpGet.port', 'FieldValueInvalid', `Invalid value: 0: ${portRange}`],
    ],
  },
  {
    ...P,
    name: 'startup probe successThreshold must be 1',
    body: podWith('p-probe-startup', { startupProbe: { tcpSocket: { port: 'http' }, successThreshold: 3 } }),
    causes: [
      [
        'spec.containers[0].startupProbe.successThreshold',
        'FieldValueInvalid',
        'Invalid value: 3: must be 1',
      ],
    ],
  },
  // volumes
  {
    ...P,
    name: 'volume with two sources',
    body: pod('p-vol-two', { volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] }),
    causes: [
      [
        'spec.volumes[0].hostPath',
        'FieldValueForbidden',
        'Forbidden: may not specify more than 1 volume type',
      ],
    ],
  },
  {
    ...P,
    name: 'duplicate volume names',
    body: pod('p-vol-dup', {
      volumes: [
        { name: 'v', emptyDir: {} },
        { name: 'v', emptyDir: {} },
      ],
    }),
    causes: [['spec.volumes[1].name', 'FieldValueDuplicate', 'Duplicate value: "v"']],
  },
  {
    ...P,
    name: 'hostPath with backsteps',
    body: pod('p-vol-hostpath', { volumes: [{ name: 'v', hostPath: { path: '/a/../b' } }] }),
    causes: [
      [
        'spec.volumes[0].hostPath.path',
        'FieldValueInvalid',
        `Invalid value: "/a/../b": must not contain '..'`,
      ],
    ],
  },
  {
    ...P,
    name: 'secret volume without secretName',
    body: pod('p-vol-secret', { volumes: [{ name: 'v', secret: {} }] }),
    causes: [['spec.volumes[0].secret.secretName', 'FieldValueRequired', 'Required value']],
  },
  {
    ...P,
    name: 'configMap volume defaultMode out of range',
    body: pod('p-vol-mode', { volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 0o1000 } }] }),
    causes: [
      [
        'spec.volumes[0].configMap.defaultMode',
        'FieldValueInvalid',
        'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
      ],
    ],
  },
  {
    ...P,
    name: 'volume mount of an unknown volume, and without a mountPath',
    body: podWith('p-vol-mount', { volumeMounts: [{ name: 'missing', mountPath: '' }] }),
    causes: [
      ['spec.containers[0].volumeMounts[0].name', 'FieldValueNotFound', 'Not found: "missing"'],
      ['spec.containers[0].volumeMounts[0].mountPath', 'FieldValueRequired', 'Required value'],
    ],
  },
  // security context
  {
    ...P,
    name: 'pod runAsUser negative',
    body: pod('p-sc-user', { securityContext: { runAsUser: -1 } }),
    causes: [
      [
        'spec.securityContext.runAsUser',
        'FieldValueInvalid',
        'Invalid value: -1: must be between 0 and 2147483647, inclusive',
      ],
    ],
  },
  {
    ...P,
    name: 'container runAsGroup too large',
    body: podWith('p-sc-group', { securityContext: { runAsGroup: 2147483648 } }),
    causes: [
      [
        'spec.containers[0].securityContext.runAsGroup',
        'FieldValueInvalid',
        'Invalid value: 2147483648: must be between 0 and 2147483647, inclusive',
      ],
    ],
  },
  {
    ...P,
    name: 'fsGroupChangePolicy unsupported',
    body: pod('p-sc-fsgroup', { securityContext: { fsGroupChangePolicy: 'Sometimes' } }),
    causes: [
      [
        'spec.securityContext.fsGroupChangePolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      ],
    ],
  },
  {
    ...P,
    name: 'seccomp Localhost without a profile',
    body: pod('p-sc-seccomp', { securityContext: { seccompProfile: { type: 'Localhost' } } }),
    causes: [
      [
        'spec.securityContext.seccompProfile.localhostProfile',
        'FieldValueRequired',
        'Required value: must be set when seccomp type is Localhost',
      ],
    ],
  },
  {
    ...P,
    name: 'seccomp type unsupported',
    body: podWith('p-sc-seccomp-type', { securityContext: { seccompProfile: { type: 'Foo' } } }),
    causes: [
      [
        'spec.containers[0].securityContext.seccompProfile.type',
        'FieldValueNotSupported',
        'Unsupported value: "Foo": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      ],
    ],
  },
  // tolerations
  {
    ...P,
    name: 'toleration with an empty key must use Exists',
    body: pod('p-tol-key', { tolerations: [{ operator: 'Equal', value: 'v' }] }),
    causes: [
      [
        'spec.tolerations[0].operator',
        'FieldValueInvalid',
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
  },
  {
    ...P,
    name: 'toleration Exists with a value',
    body: pod('p-tol-exists', { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }),
    causes: [
      [
        'spec.tolerations[0].operator',
        'FieldValueInvalid',
        'Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
      ],
    ],
  },
  {
    ...P,
    name: 'toleration seconds need NoExecute; effect unsupported',
    body: pod('p-tol-effect', {
      tolerations: [
        { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
        { key: 'k', operator: 'Exists', effect: 'Never' },
      ],
    }),
    causes: [
      [
        'spec.tolerations[0].effect',
        'FieldValueInvalid',
        'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
      [
        'spec.tolerations[1].effect',
        'FieldValueNotSupported',
        'Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
  },
  {
    ...P,
    name: 'toleration operator unsupported',
    body: pod('p-tol-op', { tolerations: [{ key: 'k', operator: 'Lt' }] }),
    causes: [
      [
        'spec.tolerations[0].operator',
        'FieldValueNotSupported',
        'Unsupported value: "Lt": supported values: "Equal", "Exists"',
      ],
    ],
  },
  // affinity
  {
    ...P,
    name: 'required node affinity without terms',
    body: pod('p-aff-noterms', {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      },
    }),
    causes: [
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
        'FieldValueRequired',
        'Required value: must have at least one node selector term',
      ],
    ],
  },
  {
    ...P,
    name: 'node selector requirement In without values, and a bad operator',
    body: pod('p-aff-values', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'a', operator: 'In' },
                  { key: 'b', operator: 'Foo' },
                ],
              },
            ],
          },
        },
      },
    }),
    causes: [
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
        'FieldValueRequired',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].operator',
        'FieldValueInvalid',
        'Invalid value: "Foo": not a valid selector operator',
      ],
    ],
  },
  {
    ...P,
    name: 'pod affinity term without topologyKey',
    body: pod('p-aff-topo', {
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }] } },
    }),
    causes: [
      [
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
        'FieldValueRequired',
        'Required value: can not be empty',
      ],
      [
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
        'FieldValueInvalid',
        'Invalid value: "": name part must be non-empty',
      ],
      [
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
        'FieldValueInvalid',
        `Invalid value: "": ${qualifiedNamePart}`,
      ],
    ],
  },
  {
    ...P,
    name: 'preferred pod anti-affinity weight out of range',
    body: pod('p-aff-weight', {
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, podAffinityTerm: { topologyKey: 'zone' } },
          ],
        },
      },
    }),
    causes: [
      [
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight',
        'FieldValueInvalid',
        'Invalid value: 0: must be in the range 1-100',
      ],
    ],
  },
  // topology spread
  {
    ...P,
    name: 'topology spread: maxSkew, topologyKey and whenUnsatisfiable',
    body: pod('p-tsc', {
      topologySpreadConstraints: [{ maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Foo' }],
    }),
    causes: [
      [
        'spec.topologySpreadConstraints[0].maxSkew',
        'FieldValueInvalid',
        'Invalid value: 0: must be greater than zero',
      ],
      [
        'spec.topologySpreadConstraints[0].topologyKey',
        'FieldValueRequired',
        'Required value: can not be empty',
      ],
      [
        'spec.topologySpreadConstraints[0].whenUnsatisfiable',
        'FieldValueNotSupported',
        'Unsupported value: "Foo": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    ],
  },
  {
    ...P,
    name: 'topology spread: duplicate {topologyKey, whenUnsatisfiable}',
    body: pod('p-tsc-dup', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
    }),
    causes: [
      [
        'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}',
        'FieldValueDuplicate',
        'Duplicate value: "{zone, DoNotSchedule}"',
      ],
    ],
  },
  {
    ...P,
    name: 'topology spread: minDomains only with DoNotSchedule',
    body: pod('p-tsc-mindomains', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
      ],
    }),
    causes: [
      [
        'spec.topologySpreadConstraints[0].minDomains',
        'FieldValueInvalid',
        'Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
    ],
  },
  {
    ...P,
    name: 'topology spread: nodeAffinityPolicy unsupported',
    body: pod('p-tsc-policy', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', nodeAffinityPolicy: 'Foo' },
      ],
    }),
    causes: [
      [
        'spec.topologySpreadConstraints[0].nodeAffinityPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Foo": supported values: "Honor", "Ignore"',
      ],
    ],
  },
  // scheduling gates (AM-10)
  {
    ...P,
    name: 'schedulingGates: a nodeName may not be set while gated',
    body: pod('p-gate-node', { schedulingGates: [{ name: 'example.com/gate' }], nodeName: 'n1' }),
    causes: [
      [
        'spec.nodeName',
        'FieldValueForbidden',
        'Forbidden: cannot be set until all schedulingGates have been cleared',
      ],
    ],
  },
  {
    ...P,
    name: 'schedulingGates: duplicate names',
    body: pod('p-gate-dup', { schedulingGates: [{ name: 'a' }, { name: 'a' }] }),
    causes: [['spec.schedulingGates[1]', 'FieldValueDuplicate', 'Duplicate value: "a"']],
  },
  {
    ...P,
    name: 'schedulingGates: only removable after creation (AM-10)',
    body: pod('p-gate-add', { schedulingGates: [{ name: 'a' }] }),
    update: (p) =>
      vary(p, (m) => {
        (m['spec'] as { schedulingGates: unknown[] }).schedulingGates.push({ name: 'b' });
      }),
    causes: [
      [
        'spec.schedulingGates[1].name',
        'FieldValueForbidden',
        "Forbidden: only deletion is allowed, but found new scheduling gate 'b'",
      ],
    ],
  },
  {
    ...P,
    name: 'ephemeralContainers cannot be set on create',
    body: pod('p-ephemeral', { ephemeralContainers: [{ name: 'e', image: 'busybox' }] }),
    causes: [['spec.ephemeralContainers', 'FieldValueForbidden', 'Forbidden: cannot be set on create']],
  },
  {
    ...P,
    name: 'label value invalid',
    body: pod('p-label', {}, { labels: { app: 'bad value!' } }),
    causes: [
      [
        'metadata.labels',
        'FieldValueInvalid',
        "Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
  },
];

// resourceClaims (AM-14) need the DynamicResourceAllocation gate (alpha in v1.27).
const dra = { featureGates: { DynamicResourceAllocation: true } };
const claimRows: Row[] = [
  {
    ...P,
    server: dra,
    name: 'resourceClaims: duplicate names (a list-map keyed by name, AM-14)',
    body: pod('p-claim-dup', {
      resourceClaims: [
        { name: 'a', source: { resourceClaimName: 'x' } },
        { name: 'a', source: { resourceClaimName: 'y' } },
      ],
    }),
    causes: [['spec.resourceClaims[1].name', 'FieldValueDuplicate', 'Duplicate value: "a"']],
  },
  {
    ...P,
    server: dra,
    name: 'resourceClaims: a source needs one of its fields',
    body: pod('p-claim-source', { resourceClaims: [{ name: 'a', source: {} }] }),
    causes: [
      [
        'spec.resourceClaims[0].source',
        'FieldValueInvalid',
        'Invalid value: core.ClaimSource{ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
      ],
    ],
  },
  {
    ...P,
    server: dra,
    name: 'resources.claims must name a pod claim',
    body: podWith('p-claim-ref', { resources: { claims: [{ name: 'x' }] } }),
    causes: [
      [
        'spec.containers[0].resources.claims[0]',
        'FieldValueNotFound',
        'Not found: "x": must be one of the names in pod.spec.resourceClaims which is empty',
      ],
    ],
  },
];

const otherRows: Row[] = [
  // Services
  {
    kind: 'Service',
    path: `${ns}/services`,
    name: 'service name must be a DNS-1035 label',
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: '1svc' }, spec: { ports: [{ port: 80 }] } },
    causes: [
      [
        'metadata.name',
        'FieldValueInvalid',
        "Invalid value: \"1svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  },
  {
    kind: 'Service',
    path: `${ns}/services`,
    name: 'ClusterIP service without ports',
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc-noports' }, spec: {} },
    causes: [['spec.ports', 'FieldValueRequired', 'Required value']],
  },
  {
    kind: 'Service',
    path: `${ns}/services`,
    name: 'service port zero; two ports need names',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc-port' },
      spec: { ports: [{ port: 0 }, { port: 81, name: 'b' }] },
    },
    causes: [
      ['spec.ports[0].name', 'FieldValueRequired', 'Required value'],
      ['spec.ports[0].port', 'FieldValueInvalid', `Invalid value: 0: ${portRange}`],
      // targetPort defaults to port
      ['spec.ports[0].targetPort', 'FieldValueInvalid', `Invalid value: 0: ${portRange}`],
    ],
  },
  {
    kind: 'Service',
    path: `${ns}/services`,
    name: 'service type unsupported',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc-type' },
      spec: { type: 'Foo', ports: [{ port: 80 }] },
    },
    causes: [
      [
        'spec.type',
        'FieldValueNotSupported',
        'Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    ],
  },
  {
    kind: 'Service',
    path: `${ns}/services`,
    name: 'ExternalName service without externalName',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc-ext' },
      spec: { type: 'ExternalName' },
    },
    causes: [['spec.externalName', 'FieldValueRequired', 'Required value']],
  },
  // ConfigMaps and Secrets
  {
    kind: 'ConfigMap',
    path: `${ns}/configmaps`,
    name: 'configmap key invalid',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-key' }, data: { 'a b': 'x' } },
    causes: [
      [
        'data[a b]',
        'FieldValueInvalid',
        "Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
    ],
  },
  {
    kind: 'ConfigMap',
    path: `${ns}/configmaps`,
    name: 'configmap key in data and binaryData',
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm-dup' },
      data: { k: 'x' },
      binaryData: { k: 'eA==' },
    },
    causes: [['data[k]', 'FieldValueInvalid', 'Invalid value: "k": duplicate of key present in binaryData']],
  },
  {
    kind: 'ConfigMap',
    path: `${ns}/configmaps`,
    name: 'immutable configmap data may not change',
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm-immutable' },
      immutable: true,
      data: { k: 'x' },
    },
    update: { mergePatch: { data: { k: 'y' } } },
    causes: [['data', 'FieldValueForbidden', 'Forbidden: field is immutable when `immutable` is set']],
  },
  {
    kind: 'Secret',
    path: `${ns}/secrets`,
    name: 'TLS secret without its keys',
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's-tls' }, type: 'kubernetes.io/tls' },
    causes: [
      ['data[tls.crt]', 'FieldValueRequired', 'Required value'],
      ['data[tls.key]', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    kind: 'Secret',
    path: `${ns}/secrets`,
    name: 'service account token secret without the annotation',
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's-sa' },
      type: 'kubernetes.io/service-account-token',
    },
    causes: [
      ['metadata.annotations[kubernetes.io/service-account.name]', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    kind: 'Secret',
    path: `${ns}/secrets`,
    name: 'secret type is immutable',
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's-type' }, type: 'Opaque' },
    update: { mergePatch: { type: 'example.com/other' } },
    causes: [['type', 'FieldValueInvalid', 'Invalid value: "example.com/other": field is immutable']],
  },
  // Namespaces, ServiceAccounts, Nodes
  {
    kind: 'Namespace',
    path: '/api/v1/namespaces',
    name: 'namespace name must be a DNS label',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bad.ns' } },
    causes: [['metadata.name', 'FieldValueInvalid', 'Invalid value: "bad.ns": must not contain dots']],
  },
  {
    kind: 'ServiceAccount',
    path: `${ns}/serviceaccounts`,
    name: 'service account name must be a DNS subdomain',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Bad_SA' } },
    causes: [['metadata.name', 'FieldValueInvalid', dns1123Subdomain('Bad_SA')]],
  },
  {
    kind: 'Node',
    path: '/api/v1/nodes',
    name: 'node taint without effect',
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n-taint' }, spec: { taints: [{ key: 'k' }] } },
    causes: [['spec.taints[0].effect', 'FieldValueRequired', 'Required value']],
  },
  // Endpoints
  {
    kind: 'Endpoints',
    path: `${ns}/endpoints`,
    name: 'endpoint address not an IP; port zero',
    body: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'ep' },
      subsets: [{ addresses: [{ ip: 'foo' }], ports: [{ port: 0 }] }],
    },
    causes: [
      [
        'subsets[0].addresses[0].ip',
        'FieldValueInvalid',
        'Invalid value: "foo": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
      ['subsets[0].addresses[0].ip', 'FieldValueInvalid', 'Invalid value: "foo": must be a valid IP address'],
      ['subsets[0].ports[0].port', 'FieldValueInvalid', `Invalid value: 0: ${portRange}`],
    ],
  },
  // Events
  {
    kind: 'Event',
    path: `${ns}/events`,
    name: 'event involvedObject namespace must match',
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'ev' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' },
    },
    causes: [
      [
        'involvedObject.namespace',
        'FieldValueInvalid',
        'Invalid value: "other": does not match event.namespace',
      ],
    ],
  },
  // LimitRanges and ResourceQuotas
  {
    kind: 'LimitRange',
    path: `${ns}/limitranges`,
    name: 'limit range min above max',
    body: {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
    },
    // Upstream passes resource.Quantity values (not pointers, so not Stringers): %#v prints the
    // struct, its cached string set by the String() call in the same statement. Defaulting copies
    // max into default and defaultRequest, which min then exceeds too.
    causes: [
      [
        'spec.limits[0].min[cpu]',
        'FieldValueInvalid',
        `Invalid value: ${goQuantity(2, '2')}: min value 2 is greater than max value 1`,
      ],
      [
        'spec.limits[0].defaultRequest[cpu]',
        'FieldValueInvalid',
        `Invalid value: ${goQuantity(1, '1')}: min value 2 is greater than default request value 1`,
      ],
      [
        'spec.limits[0].default[cpu]',
        'FieldValueInvalid',
        `Invalid value: ${goQuantity(2, '2')}: min value 2 is greater than default value 1`,
      ],
    ],
  },
  {
    kind: 'ResourceQuota',
    path: `${ns}/resourcequotas`,
    name: 'quota on a non-standard resource',
    body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'rq' }, spec: { hard: { foo: '1' } } },
    causes: [
      [
        'spec.hard[foo]',
        'FieldValueInvalid',
        'Invalid value: "foo": must be a standard resource type or fully qualified',
      ],
      ['spec.hard[foo]', 'FieldValueInvalid', 'Invalid value: "foo": must be a standard resource for quota'],
    ],
  },
  {
    kind: 'ResourceQuota',
    path: `${ns}/resourcequotas`,
    name: 'negative quota',
    body: {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'rq-neg' },
      spec: { hard: { cpu: '-1' } },
    },
    causes: [
      ['spec.hard[cpu]', 'FieldValueInvalid', 'Invalid value: "-1": must be greater than or equal to 0'],
    ],
  },
  {
    kind: 'ResourceQuota',
    path: `${ns}/resourcequotas`,
    name: 'quota scope unsupported',
    body: {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'rq-scope' },
      spec: { hard: { pods: '1' }, scopes: ['Foo'] },
    },
    causes: [
      [
        'spec.scopes',
        'FieldValueInvalid',
        'Invalid value: []core.ResourceQuotaScope{"Foo"}: unsupported scope',
      ],
    ],
  },
  // PersistentVolumes and claims
  {
    kind: 'PersistentVolume',
    path: '/api/v1/persistentvolumes',
    name: 'PV without capacity, access modes or source',
    body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-empty' }, spec: {} },
    causes: [
      ['spec.accessModes', 'FieldValueRequired', 'Required value'],
      ['spec.capacity', 'FieldValueRequired', 'Required value'],
      [
        'spec.capacity',
        'FieldValueNotSupported',
        'Unsupported value: core.ResourceList(nil): supported values: "storage"',
      ],
      ['spec', 'FieldValueRequired', 'Required value: must specify a volume type'],
    ],
  },
  {
    kind: 'PersistentVolume',
    path: '/api/v1/persistentvolumes',
    name: 'PV reclaim policy and access mode unsupported',
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-policy' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteSometimes'],
        persistentVolumeReclaimPolicy: 'Keep',
        hostPath: { path: '/tmp' },
      },
    },
    causes: [
      [
        'spec.accessModes',
        'FieldValueNotSupported',
        'Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
      [
        'spec.persistentVolumeReclaimPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      ],
    ],
  },
  {
    kind: 'PersistentVolumeClaim',
    path: `${ns}/persistentvolumeclaims`,
    name: 'PVC without access modes or storage request',
    body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc-empty' }, spec: {} },
    causes: [
      ['spec.accessModes', 'FieldValueRequired', 'Required value: at least 1 access mode is required'],
      ['spec.resources[storage]', 'FieldValueRequired', 'Required value'],
    ],
  },
  {
    kind: 'PersistentVolumeClaim',
    path: `${ns}/persistentvolumeclaims`,
    name: 'PVC ReadWriteOncePod with other modes',
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'pvc-rwop' },
      spec: {
        accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
      },
    },
    causes: [
      [
        'spec.accessModes',
        'FieldValueForbidden',
        'Forbidden: may not use ReadWriteOncePod with other access modes',
      ],
    ],
  },
  // PodTemplates and ReplicationControllers
  {
    kind: 'PodTemplate',
    path: `${ns}/podtemplates`,
    name: 'pod template without containers',
    body: {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'pt' },
      template: { spec: { containers: [] } },
    },
    causes: [['template.spec.containers', 'FieldValueRequired', 'Required value']],
  },
  {
    kind: 'ReplicationController',
    path: `${ns}/replicationcontrollers`,
    name: 'RC selector does not match the template labels; replicas negative',
    body: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: {
        replicas: -1,
        selector: { app: 'y' },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    },
    causes: [
      ['spec.replicas', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
      [
        'spec.template.metadata.labels',
        'FieldValueInvalid',
        'Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      ],
    ],
  },
];

// Feature gates of the request, not hard-coded defaults.
const gateRows: Row[] = [
  {
    kind: 'PersistentVolumeClaim',
    path: `${ns}/persistentvolumeclaims`,
    server: { featureGates: { ReadWriteOncePod: false } },
    name: 'PVC ReadWriteOncePod with its gate off',
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'pvc-rwop-off' },
      spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } },
    },
    causes: [
      [
        'spec.accessModes',
        'FieldValueNotSupported',
        'Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      ],
    ],
  },
  {
    kind: 'PersistentVolume',
    path: '/api/v1/persistentvolumes',
    server: { featureGates: { ReadWriteOncePod: false } },
    name: 'PV ReadWriteOncePod with its gate off',
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-rwop-off' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOncePod'], hostPath: { path: '/tmp' } },
    },
    causes: [
      [
        'spec.accessModes',
        'FieldValueNotSupported',
        'Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      ],
    ],
  },
];

runTable('invalid core/v1 Pods', podRows);
runTable('core/v1 validation follows the feature gates', gateRows);
runTable('invalid core/v1 Pods with resourceClaims (DynamicResourceAllocation)', claimRows);
runTable('invalid core/v1 objects', otherRows);
