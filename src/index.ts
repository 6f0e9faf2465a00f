/**
 * nanokube's library entry. `startCluster()` runs an isolated Kubernetes v1.27 cluster in this
 * process (the usual entry for tests); `startServer()` is the lower-level `nanokube serve` with
 * every flag as an option.
 */
export { startCluster } from './cluster/start-cluster.js';
export type { Cluster, ClusterFaults, ClusterOptions, Kubeconfig } from './cluster/start-cluster.js';
export type { FaultRule } from './apiserver/faults/fault-rule.js';
export { FaultRuleError } from './apiserver/faults/fault-rule.js';
export type { FaultHandle } from './apiserver/faults/fault-injector.js';
export type { ClockOption, ClusterClock } from './cluster/cluster-clock.js';
export { ClusterSnapshot } from './cluster/cluster-snapshot.js';
export type { Duration } from './cluster/duration.js';
export { startServer } from './cmd/serve/start.js';
export type { RunningServer, ServerOptions } from './cmd/serve/start.js';
export { FeatureGates, v127Gates } from './machinery/features.js';
export { ApiError, RestClient } from './client/rest-client.js';
export type { Clientset } from './client/typed-client.js';
