/** The TTL-after-finished controller: `--controllers` name `ttl-after-finished`. */
export { TtlAfterFinishedController, jobFinishTime, timeLeft } from './ttl-after-finished-controller.js';
export type { TtlAfterFinishedControllerOptions } from './ttl-after-finished-controller.js';
