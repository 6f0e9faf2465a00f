/**
 * The bootstrap configuration of API Priority and Fairness that kube-apiserver v1.27 creates at
 * start-up (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap, v0.27): the suggested and the
 * mandatory PriorityLevelConfigurations and FlowSchemas, as v1beta3 objects. Each carries the
 * `apf.kubernetes.io/autoupdate-spec: "true"` annotation and no status. Within each list the order
 * is upstream's ensure order: the suggested objects, then the mandatory ones.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { catchAllName, exemptName, flowcontrolGroup, wildcard } from './constants.js';

const apiVersion = `${flowcontrolGroup}/v1beta3`;
const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

const metadata = (name: string): KubeObject['metadata'] => ({
  name,
  annotations: { [autoUpdateAnnotation]: 'true' },
});

// ---------------------------------------------------------------------------------------------
// PriorityLevelConfigurations

function priorityLevel(name: string, spec: JsonObject): KubeObject {
  return { apiVersion, kind: 'PriorityLevelConfiguration', metadata: metadata(name), spec };
}

/** A limited level that queues (every suggested level does). */
function queuing(
  name: string,
  shares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
): KubeObject {
  return priorityLevel(name, {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    },
  });
}

function priorityLevels(): KubeObject[] {
  return [
    // Suggested.
    queuing('system', 30, 33, 64, 6),
    queuing('node-high', 40, 25, 64, 6),
    queuing('leader-election', 10, 0, 16, 4),
    queuing('workload-high', 40, 50, 128, 6),
    queuing('workload-low', 100, 90, 128, 6),
    queuing('global-default', 20, 50, 128, 6),
    // Mandatory.
    priorityLevel(catchAllName, {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
    }),
    priorityLevel(exemptName, { type: 'Exempt' }),
  ];
}

// ---------------------------------------------------------------------------------------------
// FlowSchemas

const groups = (...names: string[]): JsonObject[] =>
  names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): JsonObject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): JsonObject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }));

function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  clusterScope: boolean,
): JsonObject {
  // Upstream's Go struct emits `clusterScope` only when true (omitempty).
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces: [wildcard] };
}

const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): JsonObject => ({
  verbs,
  nonResourceURLs,
});

/** A rule on every request of the subjects: all resources everywhere and every non-resource URL. */
const everything = (subjects: JsonObject[]): JsonObject => ({
  subjects,
  resourceRules: [resourceRule([wildcard], [wildcard], [wildcard], true)],
  nonResourceRules: [nonResourceRule([wildcard], [wildcard])],
});

function flowSchema(
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  rule: JsonObject,
): KubeObject {
  return {
    apiVersion,
    kind: 'FlowSchema',
    metadata: metadata(name),
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher !== undefined ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rule],
    },
  };
}

const kubeControllerManager = 'system:kube-controller-manager';
const kubeScheduler = 'system:kube-scheduler';
const nodes = 'system:nodes';
const everyone = ['system:unauthenticated', 'system:authenticated'];
const readWrite = ['get', 'create', 'update'];

function flowSchemas(): KubeObject[] {
  return [
    // Suggested, in upstream's list order.
    flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups(nodes))),
    flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
      subjects: groups(nodes),
      resourceRules: [
        resourceRule([wildcard], [''], ['nodes', 'nodes/status'], true),
        resourceRule([wildcard], ['coordination.k8s.io'], ['leases'], false),
      ],
    }),
    flowSchema('probes', exemptName, 2, undefined, {
      subjects: groups(...everyone),
      nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
    }),
    flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
      subjects: [...users(kubeControllerManager, kubeScheduler), ...kubeSystemServiceAccounts(wildcard)],
      resourceRules: [resourceRule(readWrite, ['coordination.k8s.io'], ['leases'], false)],
    }),
    flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
      subjects: kubeSystemServiceAccounts(wildcard),
      resourceRules: [
        resourceRule(readWrite, [''], ['endpoints', 'configmaps'], false),
        resourceRule(readWrite, ['coordination.k8s.io'], ['leases'], false),
      ],
    }),
    flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
      subjects: [
        ...users(kubeControllerManager),
        ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
      ],
      resourceRules: [resourceRule(readWrite, [''], ['endpoints'], false)],
    }),
    flowSchema(
      'kube-controller-manager',
      'workload-high',
      800,
      'ByNamespace',
      everything(users(kubeControllerManager)),
    ),
    flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(kubeScheduler))),
    flowSchema(
      'kube-system-service-accounts',
      'workload-high',
      900,
      'ByNamespace',
      everything(kubeSystemServiceAccounts(wildcard)),
    ),
    flowSchema(
      'service-accounts',
      'workload-low',
      9000,
      'ByUser',
      everything(groups('system:serviceaccounts')),
    ),
    flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(groups(...everyone))),
    // Mandatory.
    flowSchema(exemptName, exemptName, 1, undefined, everything(groups('system:masters'))),
    flowSchema(catchAllName, catchAllName, 10000, 'ByUser', everything(groups(...everyone))),
  ];
}

/** Fresh copies of the bootstrap objects, priority levels first (the schemas reference them). */
export function bootstrapFlowcontrolObjects(): { priorityLevels: KubeObject[]; flowSchemas: KubeObject[] } {
  return { priorityLevels: priorityLevels(), flowSchemas: flowSchemas() };
}
