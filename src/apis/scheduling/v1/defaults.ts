/** scheduling.k8s.io/v1 defaults (upstream pkg/apis/scheduling/v1/defaults.go), in place. */
import type { JsonObject } from '../../../util/json.js';
import { setDefault } from '../../core/v1/access.js';

/** SetDefaults_PriorityClass: a missing preemptionPolicy is PreemptLowerPriority (not ""). */
export function defaultPriorityClass(o: JsonObject): void {
  setDefault(o, 'preemptionPolicy', 'PreemptLowerPriority');
}
