/** batch/v1 defaults (upstream pkg/apis/batch/v1/defaults.go, release-1.27), in place. */
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, objArr, setDefault, setDefaultStr } from '../../core/v1/access.js';
import { defaultPodTemplateSpec } from '../../core/v1/defaults/pod.js';

/** The Job spec defaults, also applied to a CronJob's job template. */
export function defaultJobSpec(spec: JsonObject): void {
  if (spec['completions'] == null && spec['parallelism'] == null) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  for (const rule of objArr(obj(spec, 'podFailurePolicy'), 'rules')) {
    for (const pattern of objArr(rule, 'onPodConditions')) setDefaultStr(pattern, 'status', 'True');
  }
  defaultPodTemplateSpec(ensureObj(spec, 'template'));
}

export function defaultJob(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  defaultJobSpec(spec);
  // A Job without labels takes its pod template's labels.
  const templateLabels = obj(obj(spec, 'template'), 'metadata')?.['labels'];
  const meta = ensureObj(o, 'metadata');
  const labels = obj(meta, 'labels');
  if (
    templateLabels !== undefined &&
    templateLabels !== null &&
    (labels === undefined || Object.keys(labels).length === 0)
  ) {
    meta['labels'] = cloneJson(templateLabels);
  }
}

export function defaultCronJob(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  setDefaultStr(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  defaultJobSpec(ensureObj(ensureObj(spec, 'jobTemplate'), 'spec'));
}
