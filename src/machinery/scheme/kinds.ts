/**
 * Which kinds the schemes of kube-apiserver v1.27 can decode, and what upstream's versioning
 * decoder says when a body's kind is not the endpoint's (apimachinery runtime/scheme.go New,
 * serializer/versioning Decode, conversion/converter.go Convert; apiserver handlers/create.go).
 */

/**
 * Kinds per group/version in `pkg/api/legacyscheme` (every k8s.io/api v0.27.16 register.go
 * addKnownTypes the kube-apiserver installs), besides the meta kinds every group/version has.
 */
const legacyKinds: readonly (readonly [string, string])[] = [
  [
    'admissionregistration.k8s.io/v1',
    'ValidatingWebhookConfiguration ValidatingWebhookConfigurationList MutatingWebhookConfiguration MutatingWebhookConfigurationList',
  ],
  [
    'admissionregistration.k8s.io/v1alpha1',
    'ValidatingAdmissionPolicy ValidatingAdmissionPolicyList ValidatingAdmissionPolicyBinding ValidatingAdmissionPolicyBindingList',
  ],
  [
    'admissionregistration.k8s.io/v1beta1',
    'ValidatingWebhookConfiguration ValidatingWebhookConfigurationList MutatingWebhookConfiguration MutatingWebhookConfigurationList',
  ],
  ['internal.apiserver.k8s.io/v1alpha1', 'StorageVersion StorageVersionList'],
  [
    'apps/v1',
    'Deployment DeploymentList StatefulSet StatefulSetList DaemonSet DaemonSetList ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList',
  ],
  [
    'apps/v1beta1',
    'Deployment DeploymentList DeploymentRollback Scale StatefulSet StatefulSetList ControllerRevision ControllerRevisionList',
  ],
  [
    'apps/v1beta2',
    'Deployment DeploymentList Scale StatefulSet StatefulSetList DaemonSet DaemonSetList ReplicaSet ReplicaSetList ControllerRevision ControllerRevisionList',
  ],
  ['authentication.k8s.io/v1', 'TokenReview TokenRequest'],
  ['authentication.k8s.io/v1alpha1', 'SelfSubjectReview'],
  ['authentication.k8s.io/v1beta1', 'SelfSubjectReview TokenReview'],
  [
    'authorization.k8s.io/v1',
    'SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview LocalSubjectAccessReview',
  ],
  [
    'authorization.k8s.io/v1beta1',
    'SelfSubjectRulesReview SelfSubjectAccessReview SubjectAccessReview LocalSubjectAccessReview',
  ],
  ['autoscaling/v1', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList Scale'],
  ['autoscaling/v2', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['autoscaling/v2beta1', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['autoscaling/v2beta2', 'HorizontalPodAutoscaler HorizontalPodAutoscalerList'],
  ['batch/v1', 'Job JobList CronJob CronJobList'],
  ['batch/v1beta1', 'CronJob CronJobList'],
  ['certificates.k8s.io/v1', 'CertificateSigningRequest CertificateSigningRequestList'],
  ['certificates.k8s.io/v1alpha1', 'ClusterTrustBundle ClusterTrustBundleList'],
  ['certificates.k8s.io/v1beta1', 'CertificateSigningRequest CertificateSigningRequestList'],
  ['coordination.k8s.io/v1', 'Lease LeaseList'],
  ['coordination.k8s.io/v1beta1', 'Lease LeaseList'],
  [
    'v1',
    'Pod PodList PodStatusResult PodTemplate PodTemplateList ReplicationController ReplicationControllerList Service ServiceProxyOptions ServiceList Endpoints EndpointsList Node NodeList NodeProxyOptions Binding Event EventList List LimitRange LimitRangeList ResourceQuota ResourceQuotaList Namespace NamespaceList Secret SecretList ServiceAccount ServiceAccountList PersistentVolume PersistentVolumeList PersistentVolumeClaim PersistentVolumeClaimList PodAttachOptions PodLogOptions PodExecOptions PodPortForwardOptions PodProxyOptions ComponentStatus ComponentStatusList SerializedReference RangeAllocation ConfigMap ConfigMapList',
  ],
  ['discovery.k8s.io/v1', 'EndpointSlice EndpointSliceList'],
  ['discovery.k8s.io/v1beta1', 'EndpointSlice EndpointSliceList'],
  ['events.k8s.io/v1', 'Event EventList'],
  ['events.k8s.io/v1beta1', 'Event EventList'],
  [
    'extensions/v1beta1',
    'Deployment DeploymentList DeploymentRollback Scale DaemonSetList DaemonSet Ingress IngressList ReplicaSet ReplicaSetList NetworkPolicy NetworkPolicyList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1alpha1',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta1',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta2',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta3',
    'FlowSchema FlowSchemaList PriorityLevelConfiguration PriorityLevelConfigurationList',
  ],
  ['imagepolicy.k8s.io/v1alpha1', 'ImageReview'],
  [
    'networking.k8s.io/v1',
    'Ingress IngressList IngressClass IngressClassList NetworkPolicy NetworkPolicyList',
  ],
  ['networking.k8s.io/v1alpha1', 'ClusterCIDR ClusterCIDRList IPAddress IPAddressList'],
  ['networking.k8s.io/v1beta1', 'Ingress IngressList IngressClass IngressClassList'],
  ['node.k8s.io/v1', 'RuntimeClass RuntimeClassList'],
  ['node.k8s.io/v1alpha1', 'RuntimeClass RuntimeClassList'],
  ['node.k8s.io/v1beta1', 'RuntimeClass RuntimeClassList'],
  ['policy/v1', 'PodDisruptionBudget PodDisruptionBudgetList Eviction'],
  [
    'policy/v1beta1',
    'PodDisruptionBudget PodDisruptionBudgetList PodSecurityPolicy PodSecurityPolicyList Eviction',
  ],
  [
    'rbac.authorization.k8s.io/v1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'rbac.authorization.k8s.io/v1alpha1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'rbac.authorization.k8s.io/v1beta1',
    'Role RoleBinding RoleBindingList RoleList ClusterRole ClusterRoleBinding ClusterRoleBindingList ClusterRoleList',
  ],
  [
    'resource.k8s.io/v1alpha2',
    'ResourceClass ResourceClassList ResourceClaim ResourceClaimList ResourceClaimTemplate ResourceClaimTemplateList PodSchedulingContext PodSchedulingContextList',
  ],
  ['scheduling.k8s.io/v1', 'PriorityClass PriorityClassList'],
  ['scheduling.k8s.io/v1alpha1', 'PriorityClass PriorityClassList'],
  ['scheduling.k8s.io/v1beta1', 'PriorityClass PriorityClassList'],
  [
    'storage.k8s.io/v1',
    'StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSINode CSINodeList CSIDriver CSIDriverList CSIStorageCapacity CSIStorageCapacityList',
  ],
  [
    'storage.k8s.io/v1alpha1',
    'VolumeAttachment VolumeAttachmentList CSIStorageCapacity CSIStorageCapacityList',
  ],
  [
    'storage.k8s.io/v1beta1',
    'StorageClass StorageClassList VolumeAttachment VolumeAttachmentList CSIDriver CSIDriverList CSINode CSINodeList CSIStorageCapacity CSIStorageCapacityList',
  ],
];

/** metav1.AddToGroupVersion: WatchEvent and the options types in each group/version. */
const metaKinds = [
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
];
/** metav1's unversioned types, registered under "v1". */
const unversionedKinds = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

interface Scheme {
  /** What upstream's naming.GetNameFromCallsite called the scheme (file:line of NewScheme). */
  readonly name: string;
  /** group/version → kinds. */
  readonly kinds: ReadonlyMap<string, ReadonlySet<string>>;
}

function buildScheme(name: string, entries: readonly (readonly [string, string])[], metaV1: boolean): Scheme {
  const kinds = new Map<string, Set<string>>();
  for (const [gv, list] of entries) kinds.set(gv, new Set([...list.split(' '), ...metaKinds]));
  const v1 = kinds.get('v1') ?? new Set<string>();
  if (metaV1) for (const k of metaKinds) v1.add(k);
  for (const k of unversionedKinds) v1.add(k);
  kinds.set('v1', v1);
  return { name, kinds };
}

let schemes: { legacy: Scheme; apiextensions: Scheme; aggregator: Scheme } | undefined;

function schemeFor(group: string): Scheme {
  schemes ??= {
    legacy: buildScheme('pkg/api/legacyscheme/scheme.go:30', legacyKinds, true),
    apiextensions: buildScheme(
      'k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go:56',
      [
        ['apiextensions.k8s.io/v1', 'CustomResourceDefinition CustomResourceDefinitionList ConversionReview'],
        [
          'apiextensions.k8s.io/v1beta1',
          'CustomResourceDefinition CustomResourceDefinitionList ConversionReview',
        ],
      ],
      true,
    ),
    aggregator: buildScheme(
      'k8s.io/kube-aggregator/pkg/apiserver/scheme/scheme.go:28',
      [
        ['apiregistration.k8s.io/v1', 'APIService APIServiceList'],
        ['apiregistration.k8s.io/v1beta1', 'APIService APIServiceList'],
      ],
      false,
    ),
  };
  if (group === 'apiextensions.k8s.io') return schemes.apiextensions;
  if (group === 'apiregistration.k8s.io') return schemes.aggregator;
  return schemes.legacy;
}

/** The Go package of each group's internal types (k8s.io/kubernetes/pkg/apis/<name>). */
const internalPackages: Readonly<Record<string, string>> = {
  '': 'core',
  'events.k8s.io': 'core',
  'admissionregistration.k8s.io': 'admissionregistration',
  'internal.apiserver.k8s.io': 'apiserverinternal',
  apps: 'apps',
  'authentication.k8s.io': 'authentication',
  'authorization.k8s.io': 'authorization',
  autoscaling: 'autoscaling',
  batch: 'batch',
  'certificates.k8s.io': 'certificates',
  'coordination.k8s.io': 'coordination',
  'discovery.k8s.io': 'discovery',
  'flowcontrol.apiserver.k8s.io': 'flowcontrol',
  'imagepolicy.k8s.io': 'imagepolicy',
  'networking.k8s.io': 'networking',
  'node.k8s.io': 'node',
  policy: 'policy',
  'rbac.authorization.k8s.io': 'rbac',
  'resource.k8s.io': 'resource',
  'scheduling.k8s.io': 'scheduling',
  'storage.k8s.io': 'storage',
  'apiextensions.k8s.io': 'apiextensions',
  'apiregistration.k8s.io': 'apiregistration',
};

/** Whether kube-apiserver's own (legacyscheme) server serves the group, not apiextensions or the aggregator. */
export function isLegacySchemeGroup(group: string): boolean {
  return (
    group === 'extensions' ||
    (group in internalPackages && group !== 'apiextensions.k8s.io' && group !== 'apiregistration.k8s.io')
  );
}

/** extensions/v1beta1 registers other groups' internal types (pkg/apis/extensions/register.go). */
const extensionsInternal: Readonly<Record<string, string>> = {
  Deployment: 'apps',
  DeploymentList: 'apps',
  DeploymentRollback: 'apps',
  DaemonSet: 'apps',
  DaemonSetList: 'apps',
  ReplicaSet: 'apps',
  ReplicaSetList: 'apps',
  Ingress: 'networking',
  IngressList: 'networking',
  NetworkPolicy: 'networking',
  NetworkPolicyList: 'networking',
  Scale: 'autoscaling',
};

/** Go's name of the internal type a kind of `group` decodes into, e.g. `core.ConfigMap`. */
export function internalTypeName(group: string, kind: string): string {
  const pkg = group === 'extensions' ? extensionsInternal[kind] : internalPackages[group];
  return `${pkg ?? group.split('.')[0] ?? group}.${kind}`;
}

export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** What decoding a body of kind `body` at an endpoint of kind `endpoint` ends in. */
export type KindCheck =
  | { readonly ok: true }
  /** The decoder's error, wrapped by the handler as `<Kind> in version "<v>" cannot be handled as a <Kind>: <error>`. */
  | { readonly ok: false; readonly decodeError: string }
  /** Decoded and converted, but of another group/version than the endpoint's (handlers/create.go, update.go). */
  | { readonly ok: false; readonly mismatch: string };

export function checkBodyKind(endpoint: GroupVersionKind, body: GroupVersionKind): KindCheck {
  if (body.group === endpoint.group && body.version === endpoint.version && body.kind === endpoint.kind) {
    return { ok: true };
  }
  const scheme = schemeFor(endpoint.group);
  const bodyGV = groupVersionString(body.group, body.version);
  if (scheme.kinds.get(bodyGV)?.has(body.kind) !== true) {
    return {
      ok: false,
      decodeError: `no kind "${body.kind}" is registered for version "${bodyGV}" in scheme "${scheme.name}"`,
    };
  }
  const target = internalTypeName(endpoint.group, endpoint.kind);
  const meta = metaKinds.includes(body.kind) || unversionedKinds.includes(body.kind);
  if (meta || internalTypeName(body.group, body.kind) !== target) {
    // reflect names a versioned type by its package: k8s.io/api/<group>/<version>, metav1 for meta kinds.
    const source = `${meta ? 'v1' : body.version}.${body.kind}`;
    return { ok: false, decodeError: `converting (${source}) to (${target}): unknown conversion` };
  }
  return {
    ok: false,
    mismatch: `the API version in the data (${bodyGV}) does not match the expected API version (${groupVersionString(endpoint.group, endpoint.version)})`,
  };
}
