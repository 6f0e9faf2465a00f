/**
 * Our own short descriptions for `kubectl explain` (upstream's text is not copied): one per served
 * kind, and the fields every kind has.
 */

export const kindDescriptions: Readonly<Record<string, string>> = {
  'io.k8s.api.core.v1.Namespace': 'A namespace groups namespaced objects and scopes their names.',
  'io.k8s.api.core.v1.Pod': 'A pod is a group of containers scheduled together onto one node.',
  'io.k8s.api.core.v1.Service':
    'A service gives a set of pods, chosen by a label selector, one stable address and port set.',
  'io.k8s.api.core.v1.ConfigMap':
    'A config map holds non-secret configuration as string or binary key-value data.',
  'io.k8s.api.core.v1.Secret': 'A secret holds sensitive key-value data such as passwords, tokens and keys.',
  'io.k8s.api.core.v1.ServiceAccount': 'A service account is an identity for processes that run in pods.',
  'io.k8s.api.core.v1.Endpoints': 'Endpoints list the addresses and ports that implement a service.',
  'io.k8s.api.core.v1.Event':
    'An event reports something that happened to an object, such as a state change or an error.',
  'io.k8s.api.core.v1.Node': 'A node is a machine that runs pods.',
  'io.k8s.api.apps.v1.Deployment':
    'A deployment declares a desired pod template and replica count and rolls out changes through replica sets.',
  'io.k8s.api.apps.v1.ReplicaSet':
    'A replica set keeps a given number of pods matching its selector running.',
  'io.k8s.api.apps.v1.StatefulSet': 'A stateful set runs pods with stable names, ordinals and storage.',
  'io.k8s.api.apps.v1.DaemonSet': 'A daemon set runs one copy of a pod on each selected node.',
  'io.k8s.api.apps.v1.ControllerRevision':
    'A controller revision records one immutable state of a workload template.',
  'io.k8s.api.batch.v1.Job': 'A job runs pods until a given number of them complete successfully.',
  'io.k8s.api.batch.v1.CronJob': 'A cron job creates jobs on a repeating schedule.',
  'io.k8s.api.coordination.v1.Lease':
    'A lease records which holder owns a named lock and until when (leader election, heartbeats).',
};

export const kindFieldDescriptions: Readonly<Record<string, string>> = {
  apiVersion: 'The API group and version of this representation of the object, e.g. "v1" or "apps/v1".',
  kind: 'The kind of object this is, e.g. "Pod"; fixed for each endpoint.',
  metadata: "The object's name, namespace, labels, annotations and system-managed fields.",
  spec: 'The desired state of the object, written by its users.',
  status: 'The observed state of the object, written by the system; read-only for most clients.',
};
