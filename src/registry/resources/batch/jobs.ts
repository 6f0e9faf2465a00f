/** jobs.batch: the Job strategy (upstream pkg/registry/batch/job/strategy.go, release-1.27). */
import { obj, num, strMap } from '../../../apis/core/v1/access.js';
import { jobInfo } from '../../../apis/batch/v1/resources.js';
import type { JobValidationOptions } from '../../../apis/batch/v1/validation/job.js';
import {
  controllerUidLabel,
  jobNameLabel,
  validateJob,
  validateJobSpecUpdate,
  validateJobStatus,
} from '../../../apis/batch/v1/validation/job.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { RegistryResource } from '../../resource.js';
import { jobTable } from '../../printers/job.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podNameWarnings } from '../../strategies/workload-warnings.js';
import { defaultJobLabelsFromTemplate, generateSelector } from './generate-selector.js';
import { jobSpecWarnings } from './warnings.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

const createOptions: JobValidationOptions = {
  allowMutableSchedulingDirectives: false,
  allowElasticIndexedJobs: true,
  requirePrefixedLabels: true,
};

/** Options for an update, which depend on the stored Job. */
function updateOptions(old: KubeObject): JobValidationOptions {
  const oldSpec = obj(old, 'spec');
  const suspended = oldSpec?.['suspend'] === true;
  const notStarted = obj(old, 'status')?.['startTime'] === undefined;
  const labels = strMap(obj(obj(oldSpec, 'template'), 'metadata'), 'labels') ?? {};
  return {
    allowMutableSchedulingDirectives: suspended && notStarted,
    allowElasticIndexedJobs: true,
    requirePrefixedLabels: labels[jobNameLabel] !== undefined && labels[controllerUidLabel] !== undefined,
  };
}

/**
 * Needs metadata.uid and metadata.name set before prepareForCreate (upstream fills the system
 * metadata before the strategy runs).
 */
const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  prepareForCreate(_ctx, job) {
    generateSelector(job);
    defaultJobLabelsFromTemplate(job);
  },
  validate: (ctx, job) => validateJob(ctx, job, createOptions),
  validateUpdate(ctx, job, old) {
    const opts = updateOptions(old);
    return [...validateJob(ctx, job, opts), ...validateJobSpecUpdate(ctx, job, old, opts)];
  },
  warningsOnCreate: (_ctx, job) => [...podNameWarnings(job), ...jobSpecWarnings(obj(job, 'spec'), 'spec')],
  warningsOnUpdate: (_ctx, job, old) =>
    job.metadata.generation !== old.metadata.generation ? jobSpecWarnings(obj(job, 'spec'), 'spec') : [],
});

export const jobs: RegistryResource = {
  info: jobInfo,
  strategy,
  table: jobTable,
  statusStrategy: defineStatusStrategy(strategy, { validateUpdate: (_ctx, job) => validateJobStatus(job) }),
  // pkg/apis/batch/v1/conversion.go words its refusal its own way.
  fieldLabels: fieldLabelConversion(
    ['metadata.name', 'metadata.namespace', 'status.successful'],
    (label) => `field label ${JSON.stringify(label)} not supported for Job`,
  ),
  selectableFields: (job) => ({ 'status.successful': String(num(obj(job, 'status'), 'succeeded') ?? 0) }),
};
