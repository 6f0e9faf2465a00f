/** The Job controller: `--controllers` name `job`. */
export { JobController } from './job-controller.js';
export type { JobControllerOptions } from './job-controller.js';
export { completionIndexAnnotation, isJobFinished, jobTrackingFinalizer } from './job-util.js';
