/** The StatefulSet controller (AM-10); `--controllers` name `statefulset`. */
export { StatefulSetController } from './statefulset-controller.js';
export type { StatefulSetControllerOptions, StatefulSetFeatures } from './statefulset-controller.js';
