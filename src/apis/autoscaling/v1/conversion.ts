/**
 * HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2, the storage version, as
 * upstream v1.27 converts through its internal type (pkg/apis/autoscaling/v1/conversion.go; the
 * internal type is v2's shape). v1 has one CPU utilization target and one current CPU
 * utilization; everything else — the other metrics, all current metrics, the behavior and the
 * conditions — rides in `autoscaling.alpha.kubernetes.io/*` annotations, so a v1 client that reads
 * and writes an object back loses nothing. Both directions are pure: new objects, the input is
 * left alone, and neither fails (an annotation that does not parse is ignored, as upstream).
 */
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import type { KubeObject, ObjectMeta } from '../../../machinery/object.js';
import { objectMetaFieldOrder } from '../../../machinery/object.js';
import {
  behaviorSpecsAnnotation,
  conditionsAnnotation,
  defaultCPUUtilization,
  dropRoundTripAnnotations,
  metricSpecsAnnotation,
  metricStatusesAnnotation,
} from '../annotations.js';
import { go, goDecode, goEncode, goMarshal, goUnmarshal } from './go-json.js';
import type { GoType } from './go-json.js';
import { internalBehavior, v1, v2 } from './go-types.js';
import {
  behaviorFromInternal,
  behaviorToInternal,
  metricSpecToV1,
  metricSpecToV2,
  metricStatusToV1,
  metricStatusToV2,
} from './metrics.js';

const lenient = { strict: false } as const;

function decodeStruct(type: GoType, v: JsonValue | undefined): JsonObject {
  const d = goDecode(type, v, lenient);
  return isJsonObject(d) ? d : {};
}

function objects(v: JsonValue | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

function resourceOf(m: JsonObject, key: string): JsonObject | undefined {
  const r = m[key];
  return m['type'] === 'Resource' && isJsonObject(r) && r['name'] === 'cpu' ? r : undefined;
}

/** The averageUtilization of a CPU Resource metric spec, if it has one. */
function cpuTargetUtilization(m: JsonObject): JsonValue | undefined {
  const target = resourceOf(m, 'resource')?.['target'];
  return isJsonObject(target) ? target['averageUtilization'] : undefined;
}

/** The current averageUtilization of a CPU Resource metric status, if it has one. */
function cpuCurrentUtilization(m: JsonObject): JsonValue | undefined {
  const current = resourceOf(m, 'resource')?.['current'];
  return isJsonObject(current) ? current['averageUtilization'] : undefined;
}

function cpuUtilizationMetric(percent: JsonValue): JsonObject {
  return {
    type: 'Resource',
    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } },
  };
}

/** A copy of `meta` with `annotations` replaced (removed when empty, as omitempty does). */
function withAnnotations(meta: ObjectMeta, annotations: Record<string, string> | undefined): ObjectMeta {
  const src: JsonObject = { ...meta };
  if (annotations !== undefined && Object.keys(annotations).length > 0) src['annotations'] = annotations;
  else delete src['annotations'];
  const out: JsonObject = {};
  for (const k of objectMetaFieldOrder) if (src[k] !== undefined) out[k] = cloneJson(src[k]);
  for (const k of Object.keys(src)) if (!(k in out)) out[k] = cloneJson(src[k]!);
  return out;
}

/** A stored autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1. */
export function horizontalPodAutoscalerToV1(obj: KubeObject): KubeObject {
  const spec = decodeStruct(v2.spec, obj['spec']);
  const status = decodeStruct(v2.status, obj['status']);
  const metrics = objects(spec['metrics']);
  const currentMetrics = objects(status['currentMetrics']);
  const conditions = objects(status['conditions']);

  const v1Spec: JsonObject = {
    scaleTargetRef: spec['scaleTargetRef'] ?? {},
    maxReplicas: spec['maxReplicas'] ?? 0,
  };
  if (spec['minReplicas'] !== undefined) v1Spec['minReplicas'] = spec['minReplicas'];
  const cpuTarget = metrics.map(cpuTargetUtilization).find((u) => u !== undefined);
  if (cpuTarget !== undefined) v1Spec['targetCPUUtilizationPercentage'] = cpuTarget;

  const v1Status: JsonObject = { ...status };
  // Upstream walks every current metric: the last CPU utilization wins.
  const cpuCurrent = currentMetrics.map(cpuCurrentUtilization).findLast((u) => u !== undefined);
  if (cpuCurrent !== undefined) v1Status['currentCPUUtilizationPercentage'] = cpuCurrent;

  // Only annotations produced here may come out: any the object carried are dropped first.
  const annotations = dropRoundTripAnnotations(obj.metadata.annotations) ?? {};
  // Every CPU utilization target is expressed (or lost) by targetCPUUtilizationPercentage.
  const otherMetrics = metrics.filter((m) => cpuTargetUtilization(m) === undefined);
  if (otherMetrics.length > 0) {
    annotations[metricSpecsAnnotation] = goMarshal(go.slice(v1.metricSpec), otherMetrics.map(metricSpecToV1));
  }
  // All current metrics, the CPU one too: it keeps its raw value here.
  if (currentMetrics.length > 0) {
    annotations[metricStatusesAnnotation] = goMarshal(
      go.slice(v1.metricStatus),
      currentMetrics.map(metricStatusToV1),
    );
  }
  const behavior = spec['behavior'];
  if (isJsonObject(behavior)) {
    annotations[behaviorSpecsAnnotation] = goMarshal(internalBehavior, behaviorToInternal(behavior));
  }
  if (conditions.length > 0) {
    annotations[conditionsAnnotation] = goMarshal(go.slice(v1.condition), conditions);
  }

  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: withAnnotations(obj.metadata, annotations),
    spec: goEncode(v1.spec, v1Spec),
    status: goEncode(v1.status, v1Status),
  };
}

/** The value of a round-trip annotation that parses as `type`; undefined when absent or broken. */
function fromAnnotation(
  annotations: Readonly<Record<string, string>> | undefined,
  key: string,
  type: GoType,
): { readonly value: JsonValue | undefined } | undefined {
  const text = annotations?.[key];
  return typeof text === 'string' ? goUnmarshal(type, text) : undefined;
}

/** An autoscaling/v1 HorizontalPodAutoscaler as autoscaling/v2. */
export function horizontalPodAutoscalerToV2(obj: KubeObject): KubeObject {
  const spec = decodeStruct(v1.spec, obj['spec']);
  const status = decodeStruct(v1.status, obj['status']);
  const annotations = obj.metadata.annotations;

  const v2Spec: JsonObject = {
    scaleTargetRef: spec['scaleTargetRef'] ?? {},
    maxReplicas: spec['maxReplicas'] ?? 0,
  };
  if (spec['minReplicas'] !== undefined) v2Spec['minReplicas'] = spec['minReplicas'];
  const cpuTarget = spec['targetCPUUtilizationPercentage'];
  const cpuMetrics = cpuTarget === undefined ? [] : [cpuUtilizationMetric(cpuTarget)];
  let metrics: JsonObject[] = cpuMetrics;
  const otherMetrics = fromAnnotation(annotations, metricSpecsAnnotation, go.slice(v1.metricSpec));
  if (otherMetrics !== undefined) {
    // The other metrics come first, the CPU target last.
    metrics = [...objects(otherMetrics.value).map(metricSpecToV2), ...cpuMetrics];
  }
  // autoscaling/v1 always had an implicit CPU target; v2 spells it out.
  if (metrics.length === 0) metrics = [cpuUtilizationMetric(defaultCPUUtilization)];
  v2Spec['metrics'] = metrics;
  const behavior = fromAnnotation(annotations, behaviorSpecsAnnotation, internalBehavior);
  if (isJsonObject(behavior?.value)) {
    const b = behaviorFromInternal(behavior.value);
    // A behavior with neither direction is no behavior.
    if (Object.keys(b).length > 0) v2Spec['behavior'] = b;
  }

  // observedGeneration, lastScaleTime and the replica counts carry over as they are.
  const v2Status: JsonObject = { ...status };
  const cpuCurrent = status['currentCPUUtilizationPercentage'];
  if (cpuCurrent !== undefined) {
    v2Status['currentMetrics'] = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpuCurrent } } },
    ];
  }
  // The annotation has more than the CPU figure: it replaces it (an empty list too).
  const currentMetrics = fromAnnotation(annotations, metricStatusesAnnotation, go.slice(v1.metricStatus));
  if (currentMetrics !== undefined) {
    v2Status['currentMetrics'] = objects(currentMetrics.value).map(metricStatusToV2);
  }
  const conditions = fromAnnotation(annotations, conditionsAnnotation, go.slice(v1.condition));
  if (conditions !== undefined) v2Status['conditions'] = objects(conditions.value);

  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: withAnnotations(obj.metadata, dropRoundTripAnnotations(annotations)),
    spec: goEncode(v2.spec, v2Spec),
    status: goEncode(v2.status, v2Status),
  };
}
