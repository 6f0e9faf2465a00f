/** The TTL-after-finished controller (issue #7): `--controllers` name `ttl-after-finished`. */
export { TtlAfterFinishedController, jobFinishTime, timeLeft } from './ttl-after-finished-controller.js';
export type { TtlAfterFinishedControllerOptions } from './ttl-after-finished-controller.js';
