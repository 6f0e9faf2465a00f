/** The DaemonSet controller; `--controllers` name `daemonset`. */
export { DaemonSetController } from './daemonset-controller.js';
export type { DaemonSetControllerOptions } from './daemonset-controller.js';
