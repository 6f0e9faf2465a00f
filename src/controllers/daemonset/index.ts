/** The DaemonSet controller (issue #7); `--controllers` name `daemonset`. */
export { DaemonSetController } from './daemonset-controller.js';
export type { DaemonSetControllerOptions } from './daemonset-controller.js';
