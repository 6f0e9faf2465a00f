/**
 * The annotations through which autoscaling/v1 round-trips what only autoscaling/v2 can express
 * (upstream pkg/apis/autoscaling/annotations.go and helpers.go), and the CPU target v1 implies.
 */

/** Metric specs other than the CPU utilization target, as JSON of []autoscaling/v1.MetricSpec. */
export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
/** Every current metric, as JSON of []autoscaling/v1.MetricStatus. */
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
/** Status conditions, as JSON of []autoscaling/v1.HorizontalPodAutoscalerCondition. */
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
/** spec.behavior, as JSON of the internal type (Go field names: `ScaleUp`, `Policies`, ...). */
export const behaviorSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';

/** The CPU utilization target (percent) of an autoscaler that names no metric. */
export const defaultCPUUtilization = 80;

const roundTripAnnotations = [
  metricSpecsAnnotation,
  behaviorSpecsAnnotation,
  metricStatusesAnnotation,
  conditionsAnnotation,
] as const;

/**
 * A copy of `annotations` without the round-trip annotations (upstream
 * DropRoundTripHorizontalPodAutoscalerAnnotations).
 */
export function dropRoundTripAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  if (annotations === undefined) return undefined;
  if (!roundTripAnnotations.some((k) => Object.hasOwn(annotations, k))) return { ...annotations };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) {
    if (!(roundTripAnnotations as readonly string[]).includes(k)) out[k] = v;
  }
  return out;
}
