/** The Job controller (issue #7): `--controllers` name `job`. */
export { JobController } from './job-controller.js';
export type { JobControllerOptions } from './job-controller.js';
export { completionIndexAnnotation, isJobFinished, jobTrackingFinalizer } from './job-util.js';
