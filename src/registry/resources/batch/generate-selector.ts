/**
 * What the Job strategy does on create (upstream generateSelector, release-1.27): unless the user
 * manages the selector, the pod template gets the job-name / controller-uid labels (legacy and
 * batch.kubernetes.io/ forms) and the selector matches batch.kubernetes.io/controller-uid.
 */
import { bool, ensureObj, obj, strMap } from '../../../apis/core/v1/access.js';
import {
  controllerUidLabel,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
} from '../../../apis/batch/v1/validation/job.js';
import type { KubeObject } from '../../../machinery/object.js';

export function generateSelector(job: KubeObject): void {
  const spec = ensureObj(job, 'spec');
  if (bool(spec, 'manualSelector') === true) return;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  const labels = ensureObj(ensureObj(ensureObj(spec, 'template'), 'metadata'), 'labels');
  // Labels the user already set are kept; a conflict is reported by validation.
  for (const key of [legacyJobNameLabel, jobNameLabel]) if (labels[key] === undefined) labels[key] = name;
  for (const key of [legacyControllerUidLabel, controllerUidLabel])
    if (labels[key] === undefined) labels[key] = uid;
  const matchLabels = ensureObj(ensureObj(spec, 'selector'), 'matchLabels');
  if (matchLabels[controllerUidLabel] === undefined) matchLabels[controllerUidLabel] = uid;
}

/**
 * A Job without labels of its own ends up with its template's labels (upstream's defaulting shares
 * the template's label map, so the generated labels show on the Job as well).
 */
export function defaultJobLabelsFromTemplate(job: KubeObject): void {
  const labels = strMap(obj(obj(obj(job, 'spec'), 'template'), 'metadata'), 'labels');
  if (labels === undefined || Object.keys(job.metadata.labels ?? {}).length > 0) return;
  job.metadata.labels = { ...labels };
}
