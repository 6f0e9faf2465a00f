/** batch/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultCronJob, defaultJob } from './defaults.js';

const base = { group: 'batch', version: 'v1', namespaced: true, verbs: allVerbs } as const;

export const jobInfo: ResourceInfo = {
  ...base,
  kind: 'Job',
  resource: 'jobs',
  singular: 'job',
  categories: ['all'],
  definition: 'io.k8s.api.batch.v1.Job',
  statusSubresource: true,
  defaulter: defaultJob,
};

export const cronJobInfo: ResourceInfo = {
  ...base,
  kind: 'CronJob',
  resource: 'cronjobs',
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  definition: 'io.k8s.api.batch.v1.CronJob',
  statusSubresource: true,
  defaulter: defaultCronJob,
};

export const batchV1ResourceInfos: readonly ResourceInfo[] = [cronJobInfo, jobInfo];
