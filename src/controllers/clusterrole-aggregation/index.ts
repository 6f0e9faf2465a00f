/** The ClusterRole aggregation controller: `--controllers` name `clusterrole-aggregation`. */
export {
  ClusterRoleAggregationController,
  aggregatedRules,
  aggregationFieldManager,
} from './clusterrole-aggregation-controller.js';
export type { ClusterRoleAggregationControllerOptions } from './clusterrole-aggregation-controller.js';
