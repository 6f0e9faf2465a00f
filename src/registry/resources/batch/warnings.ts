/** Job spec warnings (upstream pkg/api/job WarningsForJobSpec), the pod template's included. */
import { num, obj, str } from '../../../apis/core/v1/access.js';
import { podTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import type { JsonObject } from '../../../util/json.js';

const completionsSoftLimit = 100_000;
const parallelismSoftLimitForUnlimitedCompletions = 10_000;

export function jobSpecWarnings(spec: JsonObject | undefined, path: string): string[] {
  return [
    ...indexedJobWarnings(spec, path),
    ...podTemplateWarnings(`${path}.template`, obj(spec, 'template')),
  ];
}

function indexedJobWarnings(spec: JsonObject | undefined, path: string): string[] {
  if (str(spec, 'completionMode') !== 'Indexed') return [];
  const completions = num(spec, 'completions') ?? 0;
  const parallelism = num(spec, 'parallelism') ?? 0;
  if (completions > completionsSoftLimit && parallelism > parallelismSoftLimitForUnlimitedCompletions) {
    return [
      `${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`,
    ];
  }
  return [];
}
