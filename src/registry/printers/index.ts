/** The built-in table convertors, looked up by API group and kind. */
import type { TableConvertor } from '../../machinery/table.js';
import { configMapTable } from './configmap.js';
import { cronJobTable } from './cronjob.js';
import { daemonSetTable } from './daemonset.js';
import { defaultTable } from './default.js';
import { deploymentTable } from './deployment.js';
import { endpointsTable } from './endpoints.js';
import { eventTable } from './event.js';
import { horizontalPodAutoscalerTable } from './hpa.js';
import { jobTable } from './job.js';
import { leaseTable } from './lease.js';
import { namespaceTable } from './namespace.js';
import { nodeTable } from './node.js';
import { podTable } from './pod.js';
import { replicaSetTable } from './replicaset.js';
import { secretTable } from './secret.js';
import { serviceTable } from './service.js';
import { serviceAccountTable } from './serviceaccount.js';
import { statefulSetTable } from './statefulset.js';

/** Keyed by `kind` for the core group and `kind.group` otherwise, e.g. "Pod", "Deployment.apps". */
const byGroupKind: ReadonlyMap<string, TableConvertor> = new Map([
  ['Namespace', namespaceTable],
  ['Pod', podTable],
  ['Service', serviceTable],
  ['ConfigMap', configMapTable],
  ['Secret', secretTable],
  ['ServiceAccount', serviceAccountTable],
  ['Endpoints', endpointsTable],
  ['Event', eventTable],
  ['Node', nodeTable],
  ['Deployment.apps', deploymentTable],
  ['ReplicaSet.apps', replicaSetTable],
  ['StatefulSet.apps', statefulSetTable],
  ['DaemonSet.apps', daemonSetTable],
  ['HorizontalPodAutoscaler.autoscaling', horizontalPodAutoscalerTable],
  ['Job.batch', jobTable],
  ['CronJob.batch', cronJobTable],
  ['Lease.coordination.k8s.io', leaseTable],
]);

/** The printer for a built-in kind; the default name/created-at table for any other. */
export function tableConvertorFor(group: string, kind: string): TableConvertor {
  return byGroupKind.get(group === '' ? kind : `${kind}.${group}`) ?? defaultTable;
}
