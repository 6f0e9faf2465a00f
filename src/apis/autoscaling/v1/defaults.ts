/**
 * autoscaling/v1 HorizontalPodAutoscaler defaults (upstream pkg/apis/autoscaling/v1/defaults.go),
 * in place. The implicit CPU target of v1 is applied by the conversion, which sees the metrics
 * annotation too.
 */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, setDefault } from '../../core/v1/access.js';

export function defaultHorizontalPodAutoscalerV1(o: JsonObject): void {
  setDefault(ensureObj(o, 'spec'), 'minReplicas', 1);
}
