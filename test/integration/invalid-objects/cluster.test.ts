/**
 * Invalid objects of the remaining groups (rbac, networking, policy, scheduling, node,
 * storage, coordination, discovery, certificates, admissionregistration) and v1.27's exact errors.
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    kind: 'Role',
    group: 'rbac.authorization.k8s.io',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/invalid/roles',
    name: 'role rule without verbs',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r' },
      rules: [{ apiGroups: [''], resources: ['pods'] }],
    },
    causes: [
      ['rules[0].verbs', 'FieldValueRequired', 'Required value: verbs must contain at least one value'],
    ],
  },
  {
    kind: 'ClusterRole',
    group: 'rbac.authorization.k8s.io',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    name: 'cluster role rule without resources or nonResourceURLs',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cr-invalid' },
      rules: [{ verbs: ['get'] }],
    },
    causes: [
      [
        'rules[0].apiGroups',
        'FieldValueRequired',
        'Required value: resource rules must supply at least one api group',
      ],
      [
        'rules[0].resources',
        'FieldValueRequired',
        'Required value: resource rules must supply at least one resource',
      ],
    ],
  },
  {
    kind: 'RoleBinding',
    group: 'rbac.authorization.k8s.io',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/invalid/rolebindings',
    name: 'role binding to an unsupported kind',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Pod', name: 'x' },
      subjects: [{ kind: 'User', name: 'u' }],
    },
    causes: [
      [
        'roleRef.kind',
        'FieldValueNotSupported',
        'Unsupported value: "Pod": supported values: "Role", "ClusterRole"',
      ],
    ],
  },
  {
    kind: 'ClusterRoleBinding',
    group: 'rbac.authorization.k8s.io',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    name: 'cluster role binding subject kind unsupported',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'crb-invalid' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Robot', name: 'r' }],
    },
    causes: [
      [
        'subjects[0].kind',
        'FieldValueNotSupported',
        'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      ],
    ],
  },
  {
    kind: 'PriorityClass',
    group: 'scheduling.k8s.io',
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    name: 'priority class with a reserved name prefix',
    body: {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'system-mine' },
      value: 10,
    },
    causes: [
      [
        'metadata.name',
        'FieldValueForbidden',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
      ],
    ],
  },
  {
    kind: 'RuntimeClass',
    group: 'node.k8s.io',
    path: '/apis/node.k8s.io/v1/runtimeclasses',
    name: 'runtime class handler not a DNS label',
    body: {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'rc-invalid' },
      handler: 'Bad_Handler',
    },
    causes: [
      [
        'handler',
        'FieldValueInvalid',
        "Invalid value: \"Bad_Handler\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  },
  {
    kind: 'Lease',
    group: 'coordination.k8s.io',
    path: '/apis/coordination.k8s.io/v1/namespaces/invalid/leases',
    name: 'lease duration not positive',
    body: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { leaseDurationSeconds: 0 },
    },
    causes: [['spec.leaseDurationSeconds', 'FieldValueInvalid', 'Invalid value: 0: must be greater than 0']],
  },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    path: '/apis/policy/v1/namespaces/invalid/poddisruptionbudgets',
    name: 'PDB with both minAvailable and maxUnavailable',
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb' },
      spec: { minAvailable: 1, maxUnavailable: 1 },
    },
    causes: [
      [
        'spec',
        'FieldValueInvalid',
        'Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
      ],
    ],
  },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    path: '/apis/policy/v1/namespaces/invalid/poddisruptionbudgets',
    name: 'PDB percentage above 100%',
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb-pct' },
      spec: { minAvailable: '150%' },
    },
    causes: [
      [
        'spec.minAvailable',
        'FieldValueInvalid',
        'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    ],
  },
  {
    kind: 'NetworkPolicy',
    group: 'networking.k8s.io',
    path: '/apis/networking.k8s.io/v1/namespaces/invalid/networkpolicies',
    name: 'network policy type unsupported',
    body: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np' },
      spec: { podSelector: {}, policyTypes: ['Sideways'] },
    },
    causes: [
      [
        'spec.policyTypes[0]',
        'FieldValueNotSupported',
        'Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
      ],
    ],
  },
  {
    kind: 'IngressClass',
    group: 'networking.k8s.io',
    path: '/apis/networking.k8s.io/v1/ingressclasses',
    name: 'ingress class controller not a domain-prefixed path',
    body: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'ic-invalid' },
      spec: { controller: 'nginx' },
    },
    causes: [
      [
        'spec.controller',
        'FieldValueInvalid',
        'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      ],
    ],
  },
  {
    kind: 'Ingress',
    group: 'networking.k8s.io',
    path: '/apis/networking.k8s.io/v1/namespaces/invalid/ingresses',
    name: 'ingress path type unsupported',
    body: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'ing' },
      spec: {
        rules: [
          {
            http: {
              paths: [
                { path: '/', pathType: 'Fuzzy', backend: { service: { name: 's', port: { number: 80 } } } },
              ],
            },
          },
        ],
      },
    },
    causes: [
      [
        'spec.rules[0].http.paths[0].pathType',
        'FieldValueNotSupported',
        'Unsupported value: "Fuzzy": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      ],
    ],
  },
  {
    kind: 'StorageClass',
    group: 'storage.k8s.io',
    path: '/apis/storage.k8s.io/v1/storageclasses',
    name: 'storage class without provisioner; reclaim policy unsupported',
    body: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'sc-invalid' },
      provisioner: '',
      reclaimPolicy: 'Keep',
    },
    causes: [
      ['provisioner', 'FieldValueRequired', 'Required value'],
      [
        'reclaimPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Keep": supported values: "Delete", "Retain"',
      ],
    ],
  },
  {
    kind: 'CertificateSigningRequest',
    group: 'certificates.k8s.io',
    path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    name: 'CSR without request or usages',
    body: {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'csr-invalid' },
      spec: { signerName: 'example.com/s' },
    },
    causes: [
      [
        'spec.request',
        'FieldValueInvalid',
        'Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST',
      ],
      ['spec.usages', 'FieldValueRequired', 'Required value'],
    ],
  },
];

runTable('invalid objects of the other groups', rows);
