/**
 * The RBAC bootstrap policy kube-apiserver v1.27 creates and reconciles at start
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): 62 cluster roles (31 of them the controllers'
 * `system:controller:*`), 43 cluster role bindings, and 7 roles and 7 role bindings in kube-system
 * and kube-public. Declarative data of our own, hand-written (no generator) from upstream's policy
 * test data (`testdata/*.yaml`) as stored by the reference index at commits later than the
 * v1.27 tag, cut back to what v1.27 has: no post-1.27 controllers (legacy token cleaner,
 * validating-admission-policy status, service CIDRs, SELinux warning, pod checkpoint, DRA taint
 * eviction, volume attributes class), feature-gated roles left out (DRA's resource-claim
 * controller is alpha), leader-locking roles on ConfigMaps, cluster role bindings with v1.27's
 * subjects. Not verified against the tag itself (the rules of the non-controller cluster roles are
 * the stored version's): `system:basic-user`'s selfsubjectreviews rule, `edit`'s pods/eviction
 * and serviceaccounts/token rules. Every object carries
 * `rbac.authorization.kubernetes.io/autoupdate: "true"` and `kubernetes.io/bootstrapping: rbac-defaults`.
 */
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';

const rbacApiVersion = 'rbac.authorization.k8s.io/v1';
const rbacGroupName = 'rbac.authorization.k8s.io';
export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
export const bootstrappingLabel = 'kubernetes.io/bootstrapping';

const list = (s: string): string[] => s.split(',');

/** A resource rule: comma-separated verbs, API groups ('' is the core group) and resources. */
function r(verbs: string, groups: string, resources: string, names?: string): JsonObject {
  return {
    verbs: list(verbs),
    apiGroups: list(groups),
    resources: list(resources),
    ...(names !== undefined ? { resourceNames: list(names) } : {}),
  };
}

/** A non-resource rule. */
function u(verbs: string, urls: string): JsonObject {
  return { verbs: list(verbs), nonResourceURLs: list(urls) };
}

const rw = 'create,delete,deletecollection,patch,update';
const read = 'get,list,watch';
const events = r('create,patch,update', ',events.k8s.io', 'events');

function meta(name: string, namespace?: string, labels: Record<string, string> = {}): JsonObject {
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    labels: { [bootstrappingLabel]: 'rbac-defaults', ...labels },
    annotations: { [autoUpdateAnnotation]: 'true' },
  };
}

function aggregated(name: string, to: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRole',
    metadata: meta(name, undefined, labels),
    aggregationRule: {
      clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' } }],
    },
    rules: null,
  };
}

function clusterRole(name: string, rules: JsonObject[], labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRole',
    metadata: meta(name, undefined, labels),
    rules,
  };
}

function role(namespace: string, name: string, rules: JsonObject[]): KubeObject {
  return { apiVersion: rbacApiVersion, kind: 'Role', metadata: meta(name, namespace), rules };
}

type Subject = JsonObject;
const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbacGroupName, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroupName, name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function clusterBinding(name: string, subjects: Subject[], roleName = name): KubeObject {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: rbacGroupName, kind: 'ClusterRole', name: roleName },
    subjects: subjects.length === 0 ? null : subjects,
  };
}

function binding(namespace: string, name: string, roleName: string, subjects: Subject[]): KubeObject {
  return {
    apiVersion: rbacApiVersion,
    kind: 'RoleBinding',
    metadata: meta(name, namespace),
    roleRef: { apiGroup: rbacGroupName, kind: 'Role', name: roleName },
    subjects,
  };
}

const toAdmin = { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' };
const toEdit = { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' };
const toView = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };

function clusterRoles(): KubeObject[] {
  return [
    aggregated('admin', 'admin'),
    clusterRole('cluster-admin', [r('*', '*', '*'), u('*', '*')]),
    aggregated('edit', 'edit', toAdmin),
    clusterRole(
      'system:aggregate-to-admin',
      [
        r('create', 'authorization.k8s.io', 'localsubjectaccessreviews'),
        r(
          'create,delete,deletecollection,get,list,patch,update,watch',
          'rbac.authorization.k8s.io',
          'rolebindings,roles',
        ),
      ],
      toAdmin,
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        r(read, '', 'pods/attach,pods/exec,pods/portforward,pods/proxy,secrets,services/proxy'),
        r('impersonate', '', 'serviceaccounts'),
        r(rw, '', 'pods,pods/attach,pods/exec,pods/portforward,pods/proxy'),
        r('create', '', 'pods/eviction'),
        r(
          rw,
          '',
          'configmaps,events,persistentvolumeclaims,replicationcontrollers,replicationcontrollers/scale,secrets,serviceaccounts,services,services/proxy',
        ),
        r('create', '', 'serviceaccounts/token'),
        r(
          rw,
          'apps',
          'daemonsets,deployments,deployments/rollback,deployments/scale,replicasets,replicasets/scale,statefulsets,statefulsets/scale',
        ),
        r(rw, 'autoscaling', 'horizontalpodautoscalers'),
        r(rw, 'batch', 'cronjobs,jobs'),
        r(
          rw,
          'extensions',
          'daemonsets,deployments,deployments/rollback,deployments/scale,ingresses,networkpolicies,replicasets,replicasets/scale,replicationcontrollers/scale',
        ),
        r(rw, 'policy', 'poddisruptionbudgets'),
        r(rw, 'networking.k8s.io', 'ingresses,networkpolicies'),
        r('create,delete,deletecollection,get,list,patch,update,watch', 'coordination.k8s.io', 'leases'),
      ],
      toEdit,
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        r(
          read,
          '',
          'configmaps,endpoints,persistentvolumeclaims,persistentvolumeclaims/status,pods,replicationcontrollers,replicationcontrollers/scale,serviceaccounts,services,services/status',
        ),
        r(
          read,
          '',
          'bindings,events,limitranges,namespaces/status,pods/log,pods/status,replicationcontrollers/status,resourcequotas,resourcequotas/status',
        ),
        r(read, '', 'namespaces'),
        r(read, 'discovery.k8s.io', 'endpointslices'),
        r(
          read,
          'apps',
          'controllerrevisions,daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,replicasets,replicasets/scale,replicasets/status,statefulsets,statefulsets/scale,statefulsets/status',
        ),
        r(read, 'autoscaling', 'horizontalpodautoscalers,horizontalpodautoscalers/status'),
        r(read, 'batch', 'cronjobs,cronjobs/status,jobs,jobs/status'),
        r(
          read,
          'extensions',
          'daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,ingresses,ingresses/status,networkpolicies,replicasets,replicasets/scale,replicasets/status,replicationcontrollers/scale',
        ),
        r(read, 'policy', 'poddisruptionbudgets,poddisruptionbudgets/status'),
        r(read, 'networking.k8s.io', 'ingresses,ingresses/status,networkpolicies'),
      ],
      toView,
    ),
    clusterRole('system:auth-delegator', [
      r('create', 'authentication.k8s.io', 'tokenreviews'),
      r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
    ]),
    clusterRole('system:basic-user', [
      r('create', 'authorization.k8s.io', 'selfsubjectaccessreviews,selfsubjectrulesreviews'),
      r('create', 'authentication.k8s.io', 'selfsubjectreviews'),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
      r('create', 'certificates.k8s.io', 'certificatesigningrequests/nodeclient'),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
      r('create', 'certificates.k8s.io', 'certificatesigningrequests/selfnodeclient'),
    ]),
    ...[
      ['kube-apiserver-client-approver', 'kube-apiserver-client'],
      ['kube-apiserver-client-kubelet-approver', 'kube-apiserver-client-kubelet'],
      ['kubelet-serving-approver', 'kubelet-serving'],
      ['legacy-unknown-approver', 'legacy-unknown'],
    ].map(([name, signer]) =>
      clusterRole(`system:certificates.k8s.io:${name!}`, [
        r('approve', 'certificates.k8s.io', 'signers', `kubernetes.io/${signer!}`),
      ]),
    ),
    clusterRole('system:discovery', [
      u('get', '/api,/api/*,/apis,/apis/*,/healthz,/livez,/openapi,/openapi/*,/readyz,/version,/version/'),
    ]),
    clusterRole('system:heapster', [
      r(read, '', 'events,namespaces,nodes,pods'),
      r(read, 'extensions', 'deployments'),
    ]),
    clusterRole('system:kube-aggregator', [r(read, '', 'endpoints,services')]),
    clusterRole('system:kube-controller-manager', [
      events,
      r('create', 'coordination.k8s.io', 'leases'),
      r('get,update', 'coordination.k8s.io', 'leases', 'kube-controller-manager'),
      r('create', '', 'secrets,serviceaccounts'),
      r('delete', '', 'secrets'),
      r('get', '', 'configmaps,namespaces,secrets,serviceaccounts'),
      r('update', '', 'secrets,serviceaccounts'),
      r('create', 'authentication.k8s.io', 'tokenreviews'),
      r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
      r('list,watch', '*', '*'),
      r('create', '', 'serviceaccounts/token'),
    ]),
    clusterRole('system:kube-dns', [r('list,watch', '', 'endpoints,services')]),
    clusterRole('system:kube-scheduler', [
      events,
      r('create', 'coordination.k8s.io', 'leases'),
      r('get,update', 'coordination.k8s.io', 'leases', 'kube-scheduler'),
      r(read, '', 'nodes'),
      r('delete,get,list,watch', '', 'pods'),
      r('create', '', 'bindings,pods/binding'),
      r('patch,update', '', 'pods/status'),
      r(read, '', 'replicationcontrollers,services'),
      r(read, 'apps,extensions', 'replicasets'),
      r(read, 'apps', 'statefulsets'),
      r(read, 'policy', 'poddisruptionbudgets'),
      r(read, '', 'persistentvolumeclaims,persistentvolumes'),
      r('create', 'authentication.k8s.io', 'tokenreviews'),
      r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
      r(read, 'storage.k8s.io', 'csinodes'),
      r(read, '', 'namespaces'),
      r(read, 'storage.k8s.io', 'csidrivers'),
      r(read, 'storage.k8s.io', 'csistoragecapacities'),
    ]),
    clusterRole('system:kubelet-api-admin', [
      r(read, '', 'nodes'),
      r('proxy', '', 'nodes'),
      r('*', '', 'nodes/log,nodes/metrics,nodes/proxy,nodes/stats'),
    ]),
    clusterRole('system:monitoring', [
      u('get', '/healthz,/healthz/*,/livez,/livez/*,/metrics,/metrics/slis,/readyz,/readyz/*'),
    ]),
    clusterRole('system:node', [
      r('create', 'authentication.k8s.io', 'tokenreviews'),
      r('create', 'authorization.k8s.io', 'localsubjectaccessreviews,subjectaccessreviews'),
      r(read, '', 'services'),
      r('create,get,list,watch', '', 'nodes'),
      r('patch,update', '', 'nodes/status'),
      r('patch,update', '', 'nodes'),
      r('create,patch,update', '', 'events'),
      r(read, '', 'pods'),
      r('create,delete', '', 'pods'),
      r('patch,update', '', 'pods/status'),
      r('create', '', 'pods/eviction'),
      r(read, '', 'configmaps,secrets'),
      r('get', '', 'persistentvolumeclaims,persistentvolumes'),
      r('get', '', 'endpoints'),
      r('create,get,list,watch', 'certificates.k8s.io', 'certificatesigningrequests'),
      r('create,delete,get,patch,update', 'coordination.k8s.io', 'leases'),
      r('get', 'storage.k8s.io', 'volumeattachments'),
      r('create', '', 'serviceaccounts/token'),
      r('get,patch,update', '', 'persistentvolumeclaims/status'),
      r(read, 'storage.k8s.io', 'csidrivers'),
      r('create,delete,get,patch,update', 'storage.k8s.io', 'csinodes'),
      r(read, 'node.k8s.io', 'runtimeclasses'),
    ]),
    clusterRole('system:node-bootstrapper', [
      r('create,get,list,watch', 'certificates.k8s.io', 'certificatesigningrequests'),
    ]),
    clusterRole('system:node-problem-detector', [
      r('get', '', 'nodes'),
      r('patch', '', 'nodes/status'),
      events,
    ]),
    clusterRole('system:node-proxier', [
      r('list,watch', '', 'endpoints,services'),
      r(read, '', 'nodes'),
      events,
      r('list,watch', 'discovery.k8s.io', 'endpointslices'),
    ]),
    clusterRole('system:persistent-volume-provisioner', [
      r('create,delete,get,list,watch', '', 'persistentvolumes'),
      r('get,list,update,watch', '', 'persistentvolumeclaims'),
      r(read, 'storage.k8s.io', 'storageclasses'),
      r('watch', '', 'events'),
      events,
    ]),
    clusterRole('system:public-info-viewer', [u('get', '/healthz,/livez,/readyz,/version,/version/')]),
    clusterRole('system:service-account-issuer-discovery', [
      u('get', '/.well-known/openid-configuration,/openid/v1/jwks'),
    ]),
    clusterRole('system:volume-scheduler', [
      r('get,list,patch,update,watch', '', 'persistentvolumes'),
      r(read, 'storage.k8s.io', 'storageclasses'),
      r('get,list,patch,update,watch', '', 'persistentvolumeclaims'),
    ]),
    aggregated('view', 'view', toEdit),
  ];
}

/** The controllers' roles (upstream controller_policy.go), `system:controller:<name>`. */
function controllerRoles(): [string, JsonObject[]][] {
  return [
    [
      'attachdetach-controller',
      [
        r('list,watch', '', 'persistentvolumeclaims,persistentvolumes'),
        r(read, '', 'nodes'),
        r('patch,update', '', 'nodes/status'),
        r('list,watch', '', 'pods'),
        events,
        r('create,delete,get,list,watch', 'storage.k8s.io', 'volumeattachments'),
        r(read, 'storage.k8s.io', 'csidrivers'),
        r(read, 'storage.k8s.io', 'csinodes'),
      ],
    ],
    [
      'certificate-controller',
      [
        r('delete,get,list,watch', 'certificates.k8s.io', 'certificatesigningrequests'),
        r(
          'update',
          'certificates.k8s.io',
          'certificatesigningrequests/approval,certificatesigningrequests/status',
        ),
        r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
        r(
          'sign',
          'certificates.k8s.io',
          'signers',
          'kubernetes.io/kube-apiserver-client,kubernetes.io/kube-apiserver-client-kubelet,kubernetes.io/kubelet-serving,kubernetes.io/legacy-unknown',
        ),
        r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
        events,
      ],
    ],
    [
      'clusterrole-aggregation-controller',
      [r('escalate,get,list,patch,update,watch', 'rbac.authorization.k8s.io', 'clusterroles')],
    ],
    [
      'cronjob-controller',
      [
        r('get,list,update,watch', 'batch', 'cronjobs'),
        r('create,delete,get,list,patch,update,watch', 'batch', 'jobs'),
        r('update', 'batch', 'cronjobs/status'),
        r('update', 'batch', 'cronjobs/finalizers'),
        r('delete,list,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'daemon-set-controller',
      [
        r(read, 'apps,extensions', 'daemonsets'),
        r('update', 'apps,extensions', 'daemonsets/status'),
        r('update', 'apps,extensions', 'daemonsets/finalizers'),
        r('list,watch', '', 'nodes'),
        r('create,delete,list,patch,watch', '', 'pods'),
        r('create', '', 'pods/binding'),
        r('create,delete,get,list,patch,update,watch', 'apps', 'controllerrevisions'),
        events,
      ],
    ],
    [
      'deployment-controller',
      [
        r('get,list,update,watch', 'apps,extensions', 'deployments'),
        r('update', 'apps,extensions', 'deployments/status'),
        r('update', 'apps,extensions', 'deployments/finalizers'),
        r('create,delete,get,list,patch,update,watch', 'apps,extensions', 'replicasets'),
        r('get,list,update,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'disruption-controller',
      [
        r(read, 'apps,extensions', 'deployments'),
        r(read, 'apps,extensions', 'replicasets'),
        r(read, '', 'replicationcontrollers'),
        r(read, 'policy', 'poddisruptionbudgets'),
        r(read, 'apps', 'statefulsets'),
        r('update', 'policy', 'poddisruptionbudgets/status'),
        r('patch,update', '', 'pods/status'),
        r('get', '*', '*/scale'),
        events,
      ],
    ],
    [
      'endpoint-controller',
      [
        r(read, '', 'pods,services'),
        r('create,delete,get,list,update,watch', '', 'endpoints'),
        r('create', '', 'endpoints/restricted'),
        events,
      ],
    ],
    [
      'endpointslice-controller',
      [
        r(read, '', 'nodes,pods,services'),
        r('update', '', 'services/finalizers'),
        r('create,delete,get,list,update,watch', 'discovery.k8s.io', 'endpointslices'),
        events,
      ],
    ],
    [
      'endpointslicemirroring-controller',
      [
        r(read, '', 'endpoints,services'),
        r('update', '', 'services/finalizers'),
        r('update', '', 'endpoints/finalizers'),
        r('create,delete,get,list,update,watch', 'discovery.k8s.io', 'endpointslices'),
        events,
      ],
    ],
    [
      'ephemeral-volume-controller',
      [
        r(read, '', 'pods'),
        r('update', '', 'pods/finalizers'),
        r('create,get,list,watch', '', 'persistentvolumeclaims'),
        events,
      ],
    ],
    [
      'expand-controller',
      [
        r('get,list,patch,update,watch', '', 'persistentvolumes'),
        r('patch,update', '', 'persistentvolumeclaims/status'),
        r(read, '', 'persistentvolumeclaims'),
        events,
      ],
    ],
    ['generic-garbage-collector', [r('delete,get,list,patch,update,watch', '*', '*'), events]],
    [
      'horizontal-pod-autoscaler',
      [
        r(read, 'autoscaling', 'horizontalpodautoscalers'),
        r('update', 'autoscaling', 'horizontalpodautoscalers/status'),
        r('get,update', '*', '*/scale'),
        r('list,watch', '', 'pods'),
        r('list,watch', 'metrics.k8s.io', 'pods'),
        r(read, 'custom.metrics.k8s.io', '*'),
        r(read, 'external.metrics.k8s.io', '*'),
        events,
      ],
    ],
    [
      'job-controller',
      [
        r('get,list,patch,update,watch', 'batch', 'jobs'),
        r('update', 'batch', 'jobs/status'),
        r('update', 'batch', 'jobs/finalizers'),
        r('create,delete,list,patch,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'namespace-controller',
      [
        r('delete,get,list,watch', '', 'namespaces'),
        r('update', '', 'namespaces/finalize,namespaces/status'),
        r('delete,deletecollection,get,list,watch', '*', '*'),
      ],
    ],
    [
      'node-controller',
      [
        r('delete,get,list,patch,update,watch', '', 'nodes'),
        r('patch,update', '', 'nodes/status'),
        r('patch,update', '', 'pods/status'),
        r('delete,get,list,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'persistent-volume-binder',
      [
        r('create,delete,get,list,update,watch', '', 'persistentvolumes'),
        r('update', '', 'persistentvolumes/status'),
        r('get,list,update,watch', '', 'persistentvolumeclaims'),
        r('update', '', 'persistentvolumeclaims/status'),
        r('create,delete,get,list,watch', '', 'pods'),
        r(read, 'storage.k8s.io', 'storageclasses'),
        r('list,watch', '', 'nodes'),
        events,
        r('watch', '', 'events'),
      ],
    ],
    [
      'pod-garbage-collector',
      [r('delete,list,watch', '', 'pods'), r(read, '', 'nodes'), r('patch', '', 'pods/status')],
    ],
    ['pv-protection-controller', [r('get,list,update,watch', '', 'persistentvolumes'), events]],
    [
      'pvc-protection-controller',
      [
        r('get,list,update,watch', '', 'persistentvolumeclaims'),
        r('update', '', 'persistentvolumeclaims/status'),
        r(read, '', 'pods'),
        events,
      ],
    ],
    [
      'replicaset-controller',
      [
        r('get,list,update,watch', 'apps,extensions', 'replicasets'),
        r('update', 'apps,extensions', 'replicasets/status'),
        r('update', 'apps,extensions', 'replicasets/finalizers'),
        r('create,delete,list,patch,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'replication-controller',
      [
        r('get,list,update,watch', '', 'replicationcontrollers'),
        r('update', '', 'replicationcontrollers/status'),
        r('update', '', 'replicationcontrollers/finalizers'),
        r('create,delete,list,patch,watch', '', 'pods'),
        events,
      ],
    ],
    [
      'resourcequota-controller',
      [r('list,watch', '*', '*'), r('update', '', 'resourcequotas/status'), events],
    ],
    ['root-ca-cert-publisher', [r('create,update', '', 'configmaps'), events]],
    ['route-controller', [r('list,watch', '', 'nodes'), r('patch', '', 'nodes/status'), events]],
    ['service-account-controller', [r('create', '', 'serviceaccounts'), events]],
    [
      'service-controller',
      [
        r(read, '', 'services'),
        r('patch,update', '', 'services/status'),
        r('list,watch', '', 'nodes'),
        events,
      ],
    ],
    [
      'statefulset-controller',
      [
        r('list,watch', '', 'pods'),
        r(read, 'apps', 'statefulsets'),
        r('update', 'apps', 'statefulsets/status'),
        r('update', 'apps', 'statefulsets/finalizers'),
        r('create,delete,get,patch,update', '', 'pods'),
        r('create,delete,get,list,patch,update,watch', 'apps', 'controllerrevisions'),
        r('create,get,list,watch', '', 'persistentvolumeclaims'),
        r('delete,update', '', 'persistentvolumeclaims'),
        r('update', '', 'pods/finalizers'),
        events,
      ],
    ],
    ['ttl-after-finished-controller', [r('delete,get,list,watch', 'batch', 'jobs'), events]],
    ['ttl-controller', [r('list,patch,update,watch', '', 'nodes'), events]],
  ];
}

function clusterRoleBindings(): KubeObject[] {
  const authenticated = group('system:authenticated');
  return [
    clusterBinding('cluster-admin', [group('system:masters')]),
    clusterBinding('system:basic-user', [authenticated]),
    clusterBinding('system:discovery', [authenticated]),
    clusterBinding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
    clusterBinding('system:kube-dns', [sa('kube-system', 'kube-dns')]),
    clusterBinding('system:kube-scheduler', [user('system:kube-scheduler')]),
    clusterBinding('system:monitoring', [group('system:monitoring')]),
    clusterBinding('system:node', []),
    clusterBinding('system:node-proxier', [user('system:kube-proxy')]),
    clusterBinding('system:public-info-viewer', [authenticated, group('system:unauthenticated')]),
    clusterBinding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    clusterBinding('system:volume-scheduler', [user('system:kube-scheduler')]),
  ];
}

function namespaceRoles(): KubeObject[] {
  return [
    role('kube-public', 'system:controller:bootstrap-signer', [
      r(read, '', 'configmaps'),
      r('update', '', 'configmaps', 'cluster-info'),
      events,
    ]),
    role('kube-system', 'extension-apiserver-authentication-reader', [
      r(read, '', 'configmaps', 'extension-apiserver-authentication'),
    ]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', [
      r('watch', '', 'configmaps'),
      r('get,update', '', 'configmaps', 'kube-controller-manager'),
    ]),
    role('kube-system', 'system::leader-locking-kube-scheduler', [
      r('watch', '', 'configmaps'),
      r('get,update', '', 'configmaps', 'kube-scheduler'),
    ]),
    role('kube-system', 'system:controller:bootstrap-signer', [r(read, '', 'secrets')]),
    role('kube-system', 'system:controller:cloud-provider', [r('create,get,list,watch', '', 'configmaps')]),
    role('kube-system', 'system:controller:token-cleaner', [
      r('delete,get,list,watch', '', 'secrets'),
      events,
    ]),
  ];
}

function namespaceRoleBindings(): KubeObject[] {
  return [
    binding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [
      sa('kube-system', 'bootstrap-signer'),
    ]),
    binding(
      'kube-system',
      'system::extension-apiserver-authentication-reader',
      'extension-apiserver-authentication-reader',
      [user('system:kube-controller-manager'), user('system:kube-scheduler')],
    ),
    binding(
      'kube-system',
      'system::leader-locking-kube-controller-manager',
      'system::leader-locking-kube-controller-manager',
      [user('system:kube-controller-manager'), sa('kube-system', 'kube-controller-manager')],
    ),
    binding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [
      user('system:kube-scheduler'),
      sa('kube-system', 'kube-scheduler'),
    ]),
    binding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [
      sa('kube-system', 'bootstrap-signer'),
    ]),
    binding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [
      sa('kube-system', 'cloud-provider'),
    ]),
    binding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [
      sa('kube-system', 'token-cleaner'),
    ]),
  ];
}

export interface BootstrapPolicy {
  readonly clusterRoles: readonly KubeObject[];
  readonly clusterRoleBindings: readonly KubeObject[];
  readonly roles: readonly KubeObject[];
  readonly roleBindings: readonly KubeObject[];
}

/** A fresh copy of the whole v1.27 bootstrap policy. */
export function bootstrapPolicy(): BootstrapPolicy {
  const controllers = controllerRoles();
  return {
    clusterRoles: [
      ...clusterRoles(),
      ...controllers.map(([name, rules]) => clusterRole(`system:controller:${name}`, rules)),
    ],
    clusterRoleBindings: [
      ...clusterRoleBindings(),
      ...controllers.map(([name]) => clusterBinding(`system:controller:${name}`, [sa('kube-system', name)])),
    ],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
  };
}
