/** Every batch/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { cronJobs } from './cronjobs.js';
import { jobs } from './jobs.js';

export const batchV1Resources: readonly RegistryResource[] = [cronJobs, jobs];
