/** The CronJob controller (AM-10): `--controllers` name `cronjob`. */
export { CronJobController, jobNameFor, mostRecentScheduleTime } from './cronjob-controller.js';
export type { CronJobControllerOptions } from './cronjob-controller.js';
export { isValidTimeZone, parseSchedule } from './cron.js';
export type { CronSchedule } from './cron.js';
