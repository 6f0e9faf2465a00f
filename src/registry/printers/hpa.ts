/**
 * `kubectl get hpa`: NAME, REFERENCE, TARGETS, MINPODS, MAXPODS, REPLICAS, AGE, from the stored
 * autoscaling/v2 object (upstream printHorizontalPodAutoscaler and formatHPAMetrics, v1.27: targets
 * read `current/target` without the metric name, at most two then `+ N more...`).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, numberAt, objectAt, optionalNumberAt, stringAt, valueAt } from './read.js';

/** A *resource.Quantity as String() prints it: the stored canonical text, `<nil>` when unset. */
function quantity(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '<nil>';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** One metric's `current/target`; `status` is the current metric at the same index, if any. */
function formatMetric(spec: unknown, status: unknown): string {
  const unknown = '<unknown>';
  switch (stringAt(spec, 'type')) {
    case 'External':
    case 'Object': {
      const key = stringAt(spec, 'type') === 'External' ? 'external' : 'object';
      const target = objectAt(spec, key, 'target');
      const source = objectAt(status, key);
      const averageValue = valueAt(source, 'current', 'averageValue');
      if (isSet(target?.['averageValue'])) {
        const now = source !== undefined && isSet(averageValue) ? quantity(averageValue) : unknown;
        return `${now}/${quantity(target?.['averageValue'])} (avg)`;
      }
      const now = source !== undefined ? quantity(valueAt(source, 'current', 'value')) : unknown;
      return `${now}/${quantity(target?.['value'])}`;
    }
    case 'Pods': {
      const now =
        objectAt(status, 'pods') !== undefined
          ? quantity(valueAt(status, 'pods', 'current', 'averageValue'))
          : unknown;
      return `${now}/${quantity(valueAt(spec, 'pods', 'target', 'averageValue'))}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = stringAt(spec, 'type') === 'Resource' ? 'resource' : 'containerResource';
      const target = objectAt(spec, key, 'target');
      const statusSet = objectAt(status, key) !== undefined;
      if (isSet(target?.['averageValue'])) {
        const now = statusSet ? quantity(valueAt(status, key, 'current', 'averageValue')) : unknown;
        return `${now}/${quantity(target?.['averageValue'])}`;
      }
      const utilization = optionalNumberAt(status, key, 'current', 'averageUtilization');
      const now = statusSet && utilization !== undefined ? `${utilization}%` : unknown;
      const want = optionalNumberAt(target, 'averageUtilization');
      return `${now}/${want !== undefined ? `${want}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** Upstream formatHPAMetrics: `<none>` without metrics, the first two, then `+ N more...`. */
export function formatHPAMetrics(specs: readonly unknown[], statuses: readonly unknown[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

export const horizontalPodAutoscalerTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Reference', 'string', 'The kind and name of the workload the autoscaler scales.'),
    column(
      'Targets',
      'string',
      'Current and target values of the metrics the replica count is computed from.',
    ),
    column('MinPods', 'string', 'The fewest replicas the autoscaler may scale down to.'),
    column('MaxPods', 'string', 'The most replicas the autoscaler may scale up to.'),
    column('Replicas', 'string', 'The replicas the autoscaler last saw the workload run.'),
    ageColumn,
  ],
  cells(obj, now) {
    const min = optionalNumberAt(obj, 'spec', 'minReplicas');
    return [
      stringAt(obj, 'metadata', 'name'),
      `${stringAt(obj, 'spec', 'scaleTargetRef', 'kind')}/${stringAt(obj, 'spec', 'scaleTargetRef', 'name')}`,
      formatHPAMetrics(arrayAt(obj, 'spec', 'metrics'), arrayAt(obj, 'status', 'currentMetrics')),
      min === undefined ? '<unset>' : String(min),
      numberAt(obj, 'spec', 'maxReplicas'),
      numberAt(obj, 'status', 'currentReplicas'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
