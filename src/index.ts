/** nanokube's library entry: run a Kubernetes v1.27 API server in-process. */
export { startServer } from './cmd/serve/start.js';
export type { RunningServer, ServerOptions } from './cmd/serve/start.js';
export { FeatureGates, v127Gates } from './machinery/features.js';
