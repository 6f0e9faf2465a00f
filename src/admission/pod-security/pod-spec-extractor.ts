/**
 * The pod template of a workload object (upstream DefaultPodSpecExtractor): Pods themselves,
 * PodTemplates, ReplicationControllers, ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs
 * and CronJobs. A template that is a struct upstream is always there (empty when absent); a
 * ReplicationController's is a pointer, so one without a template has no pod spec to check.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { objectField, podMetadata, type PodMetadata } from './pod-fields.js';

export interface ExtractedPodSpec {
  readonly meta: PodMetadata;
  readonly spec: JsonObject;
}

const podSpecResources: ReadonlySet<string> = new Set([
  '/pods',
  '/replicationcontrollers',
  '/podtemplates',
  'apps/replicasets',
  'apps/deployments',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
]);

const emptySpec: JsonObject = Object.freeze({});

export function hasPodSpec(group: string, resource: string): boolean {
  return podSpecResources.has(`${group}/${resource}`);
}

/** undefined when the object carries no pod spec (a ReplicationController without template). */
export function extractPodSpec(
  group: string,
  resource: string,
  obj: KubeObject,
): ExtractedPodSpec | undefined {
  const spec = objectField(obj, 'spec');
  switch (`${group}/${resource}`) {
    case '/pods':
      return { meta: podMetadata(obj.metadata), spec: spec ?? emptySpec };
    case '/podtemplates':
      return fromTemplate(objectField(obj, 'template'));
    case '/replicationcontrollers': {
      const template = objectField(spec, 'template');
      return template === undefined ? undefined : fromTemplate(template);
    }
    case 'batch/cronjobs':
      return fromTemplate(objectField(objectField(objectField(spec, 'jobTemplate'), 'spec'), 'template'));
    default:
      return fromTemplate(objectField(spec, 'template'));
  }
}

function fromTemplate(template: JsonObject | undefined): ExtractedPodSpec {
  return { meta: podMetadata(template?.['metadata']), spec: objectField(template, 'spec') ?? emptySpec };
}
