/**
 * Our own words for every served kind, and for the top-level fields a kind has beside apiVersion,
 * kind, metadata, spec and status (those are in ./meta.ts). Upstream's sentences are not copied.
 */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export const kindTexts: DescriptionTable = {
  // ---- core/v1
  [`${core}Binding`]: {
    text: 'A binding assigns a pod to a node; creating one is how a scheduler places a pod.',
    fields: { target: 'The node the pod is bound to (kind Node and its name).' },
  },
  [`${core}ComponentStatus`]: {
    text: 'The health of one control-plane component (scheduler, controller manager, etcd), as probed by the API server. Deprecated upstream.',
    fields: { conditions: 'Health checks of the component and their results.' },
  },
  [`${core}ConfigMap`]: {
    text: 'A config map holds non-secret configuration as string or binary key-value data.',
    fields: {
      data: 'Keys mapped to UTF-8 text values. Keys may contain letters, digits, "-", "_" and ".".',
      binaryData:
        'Keys mapped to arbitrary bytes, base64-encoded in JSON. A key may not also appear in data.',
      immutable:
        'When true, data and binaryData can no longer change; the object can only be deleted and created again.',
    },
  },
  [`${core}Endpoints`]: {
    text: 'Endpoints list the addresses and ports that implement a service.',
    fields: {
      subsets:
        'Groups of addresses that share the same ports; the full set of endpoints is the union of the groups.',
    },
  },
  [`${core}Event`]: {
    text: 'An event reports something that happened to an object, such as a state change or an error.',
    fields: {
      action: 'What was done, or what failed, to the regarding object.',
      count: 'How many times this event has been seen.',
      eventTime: 'When the event was first seen, with microsecond precision.',
      firstTimestamp: 'When the event was recorded for the first time.',
      involvedObject: 'The object the event is about.',
      lastTimestamp: 'When the event was recorded most recently.',
      message: 'A readable explanation of what happened.',
      reason: 'A short machine-readable word for why the event happened, in UpperCamelCase.',
      related: 'A second object involved in the event, if any.',
      reportingComponent: 'The controller or component that emitted the event, e.g. "kubelet".',
      reportingInstance: 'Which instance of the reporting component emitted the event, e.g. a host name.',
      series: 'Information about a repeating series of this event; absent for a one-off event.',
      source: 'The component (and host) that reported the event.',
      type: 'The severity of the event: "Normal" or "Warning".',
    },
  },
  [`${core}LimitRange`]: {
    text: 'A limit range sets default, minimum and maximum resource amounts for pods, containers and claims in a namespace.',
  },
  [`${core}Namespace`]: { text: 'A namespace groups namespaced objects and scopes their names.' },
  [`${core}Node`]: { text: 'A node is a machine, physical or virtual, that runs pods.' },
  [`${core}PersistentVolume`]: {
    text: 'A persistent volume is a piece of storage in the cluster, provisioned by an administrator or dynamically by a storage class.',
  },
  [`${core}PersistentVolumeClaim`]: {
    text: 'A persistent volume claim is a request for storage that gets bound to a matching persistent volume.',
  },
  [`${core}Pod`]: { text: 'A pod is a group of containers scheduled together onto one node.' },
  [`${core}PodTemplate`]: {
    text: 'A pod template is a stored pod description that other objects can copy from.',
    fields: { template: 'The pod description: labels, annotations and the pod spec.' },
  },
  [`${core}ReplicationController`]: {
    text: 'A replication controller keeps a given number of pods matching its selector running; replica sets replace it.',
  },
  [`${core}ResourceQuota`]: {
    text: 'A resource quota caps the total resources and object counts a namespace may use.',
  },
  [`${core}Secret`]: {
    text: 'A secret holds sensitive key-value data such as passwords, tokens and keys.',
    fields: {
      data: 'Keys mapped to secret values, base64-encoded in JSON.',
      stringData:
        'Write-only convenience: plain-text values that are merged into data on write (they win over data for the same key). Never returned on read.',
      type: 'How the data is meant to be used, e.g. "Opaque", "kubernetes.io/tls" or "kubernetes.io/dockerconfigjson"; some types require certain keys.',
      immutable:
        'When true, the data can no longer change; the secret can only be deleted and created again.',
    },
  },
  [`${core}Service`]: {
    text: 'A service gives a set of pods, chosen by a label selector, one stable address and port set.',
  },
  [`${core}ServiceAccount`]: {
    text: 'A service account is an identity for processes that run in pods.',
    fields: {
      automountServiceAccountToken:
        'Whether pods using this account get an API token mounted by default; a pod can override it.',
      imagePullSecrets:
        'Secrets, in the same namespace, with registry credentials added to pods that use this account.',
      secrets: 'Secrets pods running as this account may use. Legacy token secrets are listed here.',
    },
  },

  // ---- admissionregistration.k8s.io
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': {
    text: 'Webhooks the API server calls, in order, to change objects before they are stored.',
    fields: { webhooks: 'The webhooks and the requests each is called for.' },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': {
    text: 'Webhooks the API server calls to accept or refuse requests before objects are stored.',
    fields: { webhooks: 'The webhooks and the requests each is called for.' },
  },
  'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicy': {
    text: 'A set of CEL rules that accept or refuse requests in the API server, without a webhook (alpha).',
  },
  'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBinding': {
    text: 'Applies a validating admission policy to a set of resources, optionally with a parameter object (alpha).',
  },

  // ---- other groups
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': {
    text: 'Defines a new resource type served by the API server: its names, versions and schema.',
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService': {
    text: 'Declares who serves one API group-version: the API server itself or a service it proxies to.',
  },
  'io.k8s.api.apps.v1.ControllerRevision': {
    text: 'A controller revision records one immutable state of a workload template.',
    fields: {
      data: 'The recorded state, usually a patch of the pod template.',
      revision: 'The number of this revision; higher is newer.',
    },
  },
  'io.k8s.api.apps.v1.DaemonSet': { text: 'A daemon set runs one copy of a pod on each selected node.' },
  'io.k8s.api.apps.v1.Deployment': {
    text: 'A deployment declares a desired pod template and replica count and rolls out changes through replica sets.',
  },
  'io.k8s.api.apps.v1.ReplicaSet': {
    text: 'A replica set keeps a given number of pods matching its selector running.',
  },
  'io.k8s.api.apps.v1.StatefulSet': {
    text: 'A stateful set runs pods with stable names, ordinals and storage.',
  },
  'io.k8s.api.authentication.v1.TokenRequest': {
    text: 'Asks for a short-lived token for a service account (created through serviceaccounts/<name>/token).',
  },
  'io.k8s.api.authentication.v1.TokenReview': {
    text: 'Asks the API server who a bearer token belongs to; the answer is in the status. Not stored.',
  },
  'io.k8s.api.authentication.v1beta1.SelfSubjectReview': {
    text: 'Asks the API server who the caller is authenticated as; the answer is in the status. Not stored.',
  },
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview': {
    text: 'Asks whether a user or group may perform an action in this namespace. Not stored.',
  },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview': {
    text: 'Asks whether the caller may perform an action. Not stored.',
  },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview': {
    text: 'Asks which actions the caller may perform in a namespace. Not stored.',
  },
  'io.k8s.api.authorization.v1.SubjectAccessReview': {
    text: 'Asks whether a user or group may perform an action. Not stored.',
  },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler': {
    text: 'Scales a workload between a minimum and maximum replica count to keep average CPU use near a target.',
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler': {
    text: 'Scales a workload between a minimum and maximum replica count from resource, pod, object or external metrics.',
  },
  'io.k8s.api.autoscaling.v1.Scale': {
    text: 'The replica count of a scalable resource, read and written through its scale subresource.',
  },
  'io.k8s.api.batch.v1.CronJob': { text: 'A cron job creates jobs on a repeating schedule.' },
  'io.k8s.api.batch.v1.Job': {
    text: 'A job runs pods until a given number of them complete successfully.',
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequest': {
    text: 'A request for a signed X.509 certificate; it is approved or denied, then a signer issues the certificate.',
  },
  'io.k8s.api.certificates.v1alpha1.ClusterTrustBundle': {
    text: 'A set of trusted CA certificates published cluster-wide, optionally tied to a signer (alpha).',
  },
  'io.k8s.api.coordination.v1.Lease': {
    text: 'A lease records which holder owns a named lock and until when (leader election, heartbeats).',
  },
  'io.k8s.api.discovery.v1.EndpointSlice': {
    text: 'One slice of the network endpoints behind a service; a service may have several slices.',
    fields: {
      addressType:
        'The kind of address every endpoint in the slice has: "IPv4", "IPv6" or "FQDN". Cannot change.',
      endpoints: 'The endpoints in this slice (at most 1000).',
      ports: 'The ports every endpoint in the slice serves (at most 100); empty means no ports are exposed.',
    },
  },
  'io.k8s.api.events.v1.Event': {
    text: 'An event reports something that happened to an object, such as a state change or an error.',
    fields: {
      action: 'What was done, or what failed, to the regarding object.',
      deprecatedCount: 'The count of the core/v1 event this one was converted from.',
      deprecatedFirstTimestamp: 'The firstTimestamp of the core/v1 event this one was converted from.',
      deprecatedLastTimestamp: 'The lastTimestamp of the core/v1 event this one was converted from.',
      deprecatedSource: 'The source of the core/v1 event this one was converted from.',
      eventTime: 'When the event was first seen, with microsecond precision. Required.',
      note: 'A readable explanation of what happened (at most 1 kB).',
      reason: 'Why the action was taken, as a short UpperCamelCase word.',
      regarding: 'The object the event is about.',
      related: 'A second object involved in the event, if any.',
      reportingController: 'The controller that emitted the event, e.g. "example.com/my-controller".',
      reportingInstance: 'Which instance of the reporting controller emitted the event.',
      series: 'Information about a repeating series of this event; absent for a one-off event.',
      type: 'The severity of the event: "Normal" or "Warning".',
    },
  },
  'io.k8s.api.flowcontrol.v1beta2.FlowSchema': {
    text: 'Sorts incoming requests into flows and picks the priority level that serves them (API priority and fairness).',
  },
  'io.k8s.api.flowcontrol.v1beta3.FlowSchema': {
    text: 'Sorts incoming requests into flows and picks the priority level that serves them (API priority and fairness).',
  },
  'io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfiguration': {
    text: "A share of the API server's concurrency, and how requests queue for it (API priority and fairness).",
  },
  'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfiguration': {
    text: "A share of the API server's concurrency, and how requests queue for it (API priority and fairness).",
  },
  'io.k8s.api.networking.v1.Ingress': {
    text: 'Routes external HTTP(S) traffic by host and path to services; an ingress controller implements it.',
  },
  'io.k8s.api.networking.v1.IngressClass': {
    text: 'Names an ingress controller and its settings; ingresses choose one through spec.ingressClassName.',
  },
  'io.k8s.api.networking.v1.NetworkPolicy': {
    text: 'Restricts which traffic may reach, or leave, the pods it selects.',
  },
  'io.k8s.api.networking.v1alpha1.ClusterCIDR': {
    text: 'Address ranges from which pod CIDRs are handed to the nodes it selects (alpha).',
  },
  'io.k8s.api.networking.v1alpha1.IPAddress': {
    text: 'Records that one IP address is allocated, and to which object (alpha); the name is the address.',
  },
  'io.k8s.api.node.v1.RuntimeClass': {
    text: 'Names a container runtime configuration that pods can select through spec.runtimeClassName.',
    fields: {
      handler:
        "The runtime configuration the node's container runtime should use; must be a lowercase DNS label. Cannot change.",
      overhead: "Resources a pod using this class consumes beyond its containers' own requests.",
      scheduling: 'Where pods using this class may run: node labels they need and taints they tolerate.',
    },
  },
  'io.k8s.api.policy.v1.Eviction': {
    text: 'Asks to evict a pod while respecting its disruption budgets (created through pods/<name>/eviction).',
    fields: { deleteOptions: 'Options for the deletion of the pod, e.g. a grace period or preconditions.' },
  },
  'io.k8s.api.policy.v1.PodDisruptionBudget': {
    text: 'Limits how many pods of a set may be down at once from voluntary disruptions such as evictions.',
  },
  'io.k8s.api.rbac.v1.ClusterRole': {
    text: 'A cluster-wide set of permissions, granted through role bindings or cluster role bindings.',
    fields: {
      rules: 'The permissions this role grants.',
      aggregationRule:
        'When set, the rules are kept equal to the union of the cluster roles these selectors match (the controller overwrites them).',
    },
  },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': {
    text: 'Grants the permissions of a cluster role to users, groups or service accounts across the whole cluster.',
    fields: {
      roleRef: 'The cluster role granted. Cannot change: delete and create the binding instead.',
      subjects: 'Who gets the permissions.',
    },
  },
  'io.k8s.api.rbac.v1.Role': {
    text: 'A set of permissions within one namespace, granted through role bindings.',
    fields: { rules: 'The permissions this role grants.' },
  },
  'io.k8s.api.rbac.v1.RoleBinding': {
    text: "Grants the permissions of a role, or of a cluster role, within the binding's namespace.",
    fields: {
      roleRef: 'The role or cluster role granted. Cannot change: delete and create the binding instead.',
      subjects: 'Who gets the permissions.',
    },
  },
  'io.k8s.api.resource.v1alpha2.PodSchedulingContext': {
    text: 'Coordinates node choice between the scheduler and resource drivers for a pod with resource claims (alpha).',
  },
  'io.k8s.api.resource.v1alpha2.ResourceClaim': {
    text: 'A request for a resource managed by a resource driver, which pods can then use (alpha).',
  },
  'io.k8s.api.resource.v1alpha2.ResourceClaimTemplate': {
    text: 'A template from which a resource claim is created for each pod that refers to it (alpha).',
  },
  'io.k8s.api.resource.v1alpha2.ResourceClass': {
    text: 'A kind of resource a driver offers, with common parameters for the claims that use it (alpha).',
    fields: {
      driverName: 'The resource driver that handles claims of this class.',
      parametersRef: 'An object with driver-specific parameters for claims of this class.',
      suitableNodes: 'Nodes on which claims of this class may be allocated; all nodes when unset.',
    },
  },
  'io.k8s.api.scheduling.v1.PriorityClass': {
    text: 'Maps a priority class name to an integer priority that pods get through spec.priorityClassName.',
    fields: {
      value: 'The priority pods of this class get; higher wins. User classes are at most one billion.',
      globalDefault:
        'Whether pods without a priority class get this one. Only one class may be the global default.',
      description: 'Free text saying when this class should be used.',
      preemptionPolicy:
        'Whether pods of this class may preempt lower-priority pods: "PreemptLowerPriority" (default) or "Never".',
    },
  },
  'io.k8s.api.storage.v1.CSIDriver': {
    text: 'Tells the cluster how a CSI volume driver installed on the nodes behaves.',
  },
  'io.k8s.api.storage.v1.CSINode': {
    text: 'The CSI drivers installed on one node, named after the node.',
  },
  'io.k8s.api.storage.v1.CSIStorageCapacity': {
    text: 'How much storage a storage class can still provide in one topology segment, as reported by a CSI driver.',
    fields: {
      capacity: 'The capacity still available; unset means unknown.',
      maximumVolumeSize: 'The largest single volume that could be created now; unset means capacity applies.',
      nodeTopology: 'The nodes this capacity is reachable from; unset means none.',
      storageClassName: 'The storage class this capacity is for.',
    },
  },
  'io.k8s.api.storage.v1.StorageClass': {
    text: 'A class of storage: which provisioner creates volumes for claims of this class, and with what settings.',
    fields: {
      provisioner: 'The name of the volume plugin or CSI driver that creates volumes. Cannot change.',
      parameters: 'Settings passed to the provisioner. Cannot change.',
      reclaimPolicy: 'What happens to provisioned volumes when released: "Delete" (default) or "Retain".',
      mountOptions: 'Mount options given to the volumes this class provisions, e.g. "ro".',
      allowVolumeExpansion: 'Whether claims of this class may ask for more storage later.',
      volumeBindingMode:
        'When claims are bound and provisioned: "Immediate" (default) or "WaitForFirstConsumer" (once a pod using the claim is scheduled).',
      allowedTopologies: 'Where volumes may be provisioned; anywhere when empty.',
    },
  },
  'io.k8s.api.storage.v1.VolumeAttachment': {
    text: 'Asks for a volume to be attached to, or detached from, a node.',
  },

  // ---- machinery kinds the API answers with
  [`${meta}APIGroup`]: {
    text: 'One API group and the versions it serves, as discovery lists it.',
    fields: {
      name: 'The group name, e.g. "apps".',
      preferredVersion: 'The version clients should use when they have no preference.',
      serverAddressByClientCIDRs: 'Addresses clients in given networks should use to reach the server.',
      versions: 'The versions this group serves.',
    },
  },
  [`${meta}APIGroupList`]: {
    text: 'The API groups the server serves, listed at /apis.',
    fields: { groups: 'The groups, each with its versions.' },
  },
  [`${meta}APIResourceList`]: {
    text: 'The resources one group-version serves, listed at its discovery path (e.g. /apis/apps/v1).',
    fields: {
      groupVersion: 'The group-version, e.g. "apps/v1".',
      resources: 'The resources, with their verbs, scope, kinds and short names.',
    },
  },
  [`${meta}APIVersions`]: {
    text: 'The versions of the core (legacy) API, listed at /api.',
    fields: {
      serverAddressByClientCIDRs: 'Addresses clients in given networks should use to reach the server.',
      versions: 'The versions served, e.g. "v1".',
    },
  },
  [`${meta}DeleteOptions`]: {
    text: 'Options for a delete request.',
    fields: {
      dryRun: 'Set to ["All"] to have the request checked but nothing deleted.',
      gracePeriodSeconds:
        "Seconds to give the object before it is removed; 0 means at once. Unset uses the kind's default.",
      orphanDependents:
        'Deprecated: use propagationPolicy. Whether objects owned by this one are left in place.',
      preconditions: 'Conditions (uid, resourceVersion) the object must still meet to be deleted.',
      propagationPolicy:
        'What happens to objects this one owns: "Orphan" (left in place), "Background" (deleted afterwards) or "Foreground" (deleted first).',
    },
  },
  [`${meta}Status`]: {
    text: 'The result of a request that does not return an object, most often an error.',
    fields: {
      metadata: 'List metadata; usually empty.',
      code: 'The HTTP status code of this answer.',
      details: 'Further data about the reason, such as the object and the invalid fields.',
      message: 'A readable description of what happened.',
      reason: 'A machine-readable reason, e.g. "NotFound" or "AlreadyExists"; empty when unknown.',
    },
  },
  [`${meta}WatchEvent`]: {
    text: 'One change seen by a watch.',
    fields: {
      type: 'ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.',
      object: 'The object after the change (its last state for DELETED), a Status for ERROR.',
    },
  },
};
