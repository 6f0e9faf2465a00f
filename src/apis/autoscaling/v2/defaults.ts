/**
 * autoscaling/v2 HorizontalPodAutoscaler defaults (upstream pkg/apis/autoscaling/v2/defaults.go),
 * in place: minReplicas 1, a CPU utilization target of 80% when no metric is named, and, when a
 * behavior is given, every rule it leaves out filled from the default scale-up and scale-down rules.
 */
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, setDefault } from '../../core/v1/access.js';
import { defaultCPUUtilization } from '../annotations.js';

/** Scale up by at most 4 pods or 100% (whichever is more) per 15s, without stabilization. */
const scaleUpRules: JsonObject = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};

/**
 * Scale down by at most 100% per 15s. No stabilization window: the controller's
 * --horizontal-pod-autoscaler-downscale-stabilization flag applies when none is set.
 */
const scaleDownRules: JsonObject = {
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
};

/** `rules` over a copy of `defaults`: each field `rules` sets wins (upstream copyHPAScalingRules). */
function withDefaults(rules: JsonObject | undefined, defaults: JsonObject): JsonObject {
  const out = cloneJson(defaults);
  if (rules === undefined) return out;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
    const v = rules[key];
    if (v !== undefined && v !== null) out[key] = v;
  }
  return out;
}

/** Fully populated scale-up rules from the given (partial) ones (upstream GenerateHPAScaleUpRules). */
export function generateScaleUpRules(rules?: JsonObject): JsonObject {
  return withDefaults(rules, scaleUpRules);
}

/**
 * Fully populated scale-down rules from the given ones (upstream GenerateHPAScaleDownRules);
 * stabilizationWindowSeconds stays unset unless given.
 */
export function generateScaleDownRules(rules?: JsonObject): JsonObject {
  return withDefaults(rules, scaleDownRules);
}

/** Upstream SetDefaults_HorizontalPodAutoscalerBehavior: only a behavior that is set is completed. */
export function defaultBehavior(spec: JsonObject): void {
  const behavior = obj(spec, 'behavior');
  if (behavior === undefined) return;
  const up = behavior['scaleUp'];
  const down = behavior['scaleDown'];
  spec['behavior'] = {
    scaleUp: generateScaleUpRules(isJsonObject(up) ? up : undefined),
    scaleDown: generateScaleDownRules(isJsonObject(down) ? down : undefined),
  };
}

/** Upstream SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
export function defaultHorizontalPodAutoscalerV2(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  setDefault(spec, 'minReplicas', 1);
  const metrics = spec['metrics'];
  if (!Array.isArray(metrics) || metrics.length === 0) {
    spec['metrics'] = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } },
      },
    ];
  }
  defaultBehavior(spec);
}
