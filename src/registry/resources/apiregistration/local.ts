/**
 * The APIServices kube-apiserver registers for its own group-versions (cmd/kube-apiserver/app
 * aggregator.go, v1.27): one per served group-version that has an entry in its priority table,
 * named `<version>.<group>` (`v1.` for the core group), without a service, labelled as
 * auto-managed on start, and Available with reason Local.
 */
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { localAvailableCondition } from './apiservices.js';

interface Priority {
  readonly group: number;
  readonly version: number;
}

/** v1.27's apiVersionPriorities: `group/version` → group and version priority. */
const priorities: ReadonlyMap<string, Priority> = new Map(
  (
    [
      ['/v1', 18000, 1],
      ['apps/v1', 17800, 15],
      ['events.k8s.io/v1', 17750, 15],
      ['events.k8s.io/v1beta1', 17750, 5],
      ['authentication.k8s.io/v1', 17700, 15],
      ['authentication.k8s.io/v1beta1', 17700, 9],
      ['authentication.k8s.io/v1alpha1', 17700, 1],
      ['authorization.k8s.io/v1', 17600, 15],
      ['autoscaling/v1', 17500, 15],
      ['autoscaling/v2', 17500, 30],
      ['autoscaling/v2beta1', 17500, 9],
      ['autoscaling/v2beta2', 17500, 1],
      ['batch/v1', 17400, 15],
      ['batch/v1beta1', 17400, 9],
      ['batch/v2alpha1', 17400, 9],
      ['certificates.k8s.io/v1', 17300, 15],
      ['certificates.k8s.io/v1alpha1', 17300, 1],
      ['networking.k8s.io/v1', 17200, 15],
      ['networking.k8s.io/v1alpha1', 17200, 1],
      ['policy/v1', 17100, 15],
      ['policy/v1beta1', 17100, 9],
      ['rbac.authorization.k8s.io/v1', 17000, 15],
      ['storage.k8s.io/v1', 16800, 15],
      ['storage.k8s.io/v1beta1', 16800, 9],
      ['storage.k8s.io/v1alpha1', 16800, 1],
      ['apiextensions.k8s.io/v1', 16700, 15],
      ['admissionregistration.k8s.io/v1', 16700, 15],
      ['admissionregistration.k8s.io/v1alpha1', 16700, 9],
      ['scheduling.k8s.io/v1', 16600, 15],
      ['coordination.k8s.io/v1', 16500, 15],
      ['node.k8s.io/v1', 16300, 15],
      ['node.k8s.io/v1alpha1', 16300, 1],
      ['node.k8s.io/v1beta1', 16300, 9],
      ['discovery.k8s.io/v1', 16200, 15],
      ['discovery.k8s.io/v1beta1', 16200, 12],
      ['flowcontrol.apiserver.k8s.io/v1beta3', 16100, 18],
      ['flowcontrol.apiserver.k8s.io/v1beta2', 16100, 15],
      ['flowcontrol.apiserver.k8s.io/v1beta1', 16100, 12],
      ['flowcontrol.apiserver.k8s.io/v1alpha1', 16100, 9],
      ['internal.apiserver.k8s.io/v1alpha1', 16000, 9],
      ['resource.k8s.io/v1alpha2', 15900, 9],
    ] as const
  ).map(([gv, group, version]) => [gv, { group, version }]),
);

/** The label the autoregister controller marks the APIServices it created on start with. */
export const autoRegisterManagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

/** The priorities kube-apiserver v1.27 gives a group-version, undefined when it has none. */
export function apiVersionPriority(group: string, version: string): Priority | undefined {
  return priorities.get(`${group}/${version}`);
}

/**
 * The local APIService objects for the served group-versions, in the order given. Group-versions
 * missing from upstream's table (apiregistration.k8s.io itself, custom resources) get none, as
 * upstream skips them. Objects carry no uid/resourceVersion/creationTimestamp: the store fills
 * those in.
 */
export function localAPIServices(
  groupVersions: readonly { group: string; version: string }[],
  now?: string,
): KubeObject[] {
  const out: KubeObject[] = [];
  const seen = new Set<string>();
  for (const { group, version } of groupVersions) {
    const priority = apiVersionPriority(group, version);
    const name = `${version}.${group}`;
    if (priority === undefined || seen.has(name)) continue;
    seen.add(name);
    const spec: JsonObject = {
      ...(group === '' ? {} : { group }),
      version,
      groupPriorityMinimum: priority.group,
      versionPriority: priority.version,
    };
    out.push({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name, labels: { [autoRegisterManagedLabel]: 'onstart' } },
      spec,
      status: { conditions: [localAvailableCondition(now)] },
    });
  }
  return out;
}
