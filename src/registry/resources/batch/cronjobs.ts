/** cronjobs.batch: the CronJob strategy (upstream pkg/registry/batch/cronjob/strategy.go, release-1.27). */
import { obj, str } from '../../../apis/core/v1/access.js';
import { cronJobInfo } from '../../../apis/batch/v1/resources.js';
import { validateCronJobCreate, validateCronJobUpdate } from '../../../apis/batch/v1/validation/cronjob.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { cronJobTable } from '../../printers/cronjob.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podNameWarnings } from '../../strategies/workload-warnings.js';
import { jobSpecWarnings } from './warnings.js';

const jobTemplatePath = 'spec.jobTemplate.spec';

/** The schedule warning for the unofficial `TZ=` / `CRON_TZ=` prefix. */
export function scheduleTZWarnings(cj: KubeObject): string[] {
  const schedule = str(obj(cj, 'spec'), 'schedule') ?? '';
  if (!schedule.includes('TZ')) return [];
  return [
    'CRON_TZ or TZ used in spec.spec.schedule is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
  ];
}

function jobTemplateSpec(cj: KubeObject): JsonObject | undefined {
  return obj(obj(obj(cj, 'spec'), 'jobTemplate'), 'spec');
}

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: validateCronJobCreate,
  validateUpdate: validateCronJobUpdate,
  warningsOnCreate: (_ctx, cj) => [
    ...podNameWarnings(cj),
    ...jobSpecWarnings(jobTemplateSpec(cj), jobTemplatePath),
    ...scheduleTZWarnings(cj),
  ],
  warningsOnUpdate: (_ctx, cj, old) => [
    ...(cj.metadata.generation !== old.metadata.generation
      ? jobSpecWarnings(jobTemplateSpec(cj), jobTemplatePath)
      : []),
    ...scheduleTZWarnings(cj),
  ],
});

export const cronJobs: RegistryResource = {
  info: cronJobInfo,
  strategy,
  table: cronJobTable,
  statusStrategy: defineStatusStrategy(strategy),
};
