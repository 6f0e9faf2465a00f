/** Every scheduling.k8s.io/v1 resource this server serves, and the classes created at start-up. */
import { apiVersionOf } from '../../../apis/resource.js';
import { priorityClassInfo } from '../../../apis/scheduling/v1/resources.js';
import { systemPriorityClassList } from '../../../apis/scheduling/v1/system.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { RegistryResource } from '../../resource.js';
import { priorityClasses } from './priorityclasses.js';

export const schedulingV1Resources: readonly RegistryResource[] = [priorityClasses];

/**
 * The bootstrap priority classes kube-apiserver creates at start-up (system-node-critical, then
 * system-cluster-critical), as fresh objects ready to create: defaulted (preemptionPolicy) and with
 * upstream's descriptions. globalDefault is false, so it is omitted as upstream writes it.
 */
export function systemPriorityClasses(): KubeObject[] {
  return systemPriorityClassList.map((c) => ({
    apiVersion: apiVersionOf(priorityClassInfo),
    kind: priorityClassInfo.kind,
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: 'PreemptLowerPriority',
  }));
}
