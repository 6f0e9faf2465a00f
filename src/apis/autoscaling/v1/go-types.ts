/**
 * The Go structs behind HorizontalPodAutoscaler JSON, as go-json descriptions: autoscaling/v1
 * (k8s.io/api v0.27) for the annotations, autoscaling/v2 for the stored shape, and upstream's
 * internal HorizontalPodAutoscalerBehavior, which the behavior annotation holds with Go's field
 * names (the internal type has no json tags).
 */
import { go } from './go-json.js';

const { field, opt, ptr, slice, struct } = go;

export const crossVersionObjectReference = struct(
  field('kind', go.string),
  field('name', go.string),
  opt('apiVersion', go.string),
);

const labelSelectorRequirement = struct(
  field('key', go.string),
  field('operator', go.string),
  opt('values', slice(go.string)),
);

export const labelSelector = struct(
  opt('matchLabels', go.stringMap),
  opt('matchExpressions', slice(labelSelectorRequirement)),
);

/** autoscaling/v1 types (only reachable through the round-trip annotations). */
export const v1 = {
  metricSpec: struct(
    field('type', go.string),
    opt(
      'object',
      ptr(
        struct(
          field('target', crossVersionObjectReference),
          field('metricName', go.string),
          field('targetValue', go.quantity),
          opt('selector', ptr(labelSelector)),
          opt('averageValue', ptr(go.quantity)),
        ),
      ),
    ),
    opt(
      'pods',
      ptr(
        struct(
          field('metricName', go.string),
          field('targetAverageValue', go.quantity),
          opt('selector', ptr(labelSelector)),
        ),
      ),
    ),
    opt(
      'resource',
      ptr(
        struct(
          field('name', go.string),
          opt('targetAverageUtilization', ptr(go.int32)),
          opt('targetAverageValue', ptr(go.quantity)),
        ),
      ),
    ),
    opt(
      'containerResource',
      ptr(
        struct(
          field('name', go.string),
          opt('targetAverageUtilization', ptr(go.int32)),
          opt('targetAverageValue', ptr(go.quantity)),
          field('container', go.string),
        ),
      ),
    ),
    opt(
      'external',
      ptr(
        struct(
          field('metricName', go.string),
          opt('metricSelector', ptr(labelSelector)),
          opt('targetValue', ptr(go.quantity)),
          opt('targetAverageValue', ptr(go.quantity)),
        ),
      ),
    ),
  ),
  metricStatus: struct(
    field('type', go.string),
    opt(
      'object',
      ptr(
        struct(
          field('target', crossVersionObjectReference),
          field('metricName', go.string),
          field('currentValue', go.quantity),
          opt('selector', ptr(labelSelector)),
          opt('averageValue', ptr(go.quantity)),
        ),
      ),
    ),
    opt(
      'pods',
      ptr(
        struct(
          field('metricName', go.string),
          field('currentAverageValue', go.quantity),
          opt('selector', ptr(labelSelector)),
        ),
      ),
    ),
    opt(
      'resource',
      ptr(
        struct(
          field('name', go.string),
          opt('currentAverageUtilization', ptr(go.int32)),
          field('currentAverageValue', go.quantity),
        ),
      ),
    ),
    opt(
      'containerResource',
      ptr(
        struct(
          field('name', go.string),
          opt('currentAverageUtilization', ptr(go.int32)),
          field('currentAverageValue', go.quantity),
          field('container', go.string),
        ),
      ),
    ),
    opt(
      'external',
      ptr(
        struct(
          field('metricName', go.string),
          opt('metricSelector', ptr(labelSelector)),
          field('currentValue', go.quantity),
          opt('currentAverageValue', ptr(go.quantity)),
        ),
      ),
    ),
  ),
  condition: struct(
    field('type', go.string),
    field('status', go.string),
    opt('lastTransitionTime', go.time),
    opt('reason', go.string),
    opt('message', go.string),
  ),
  spec: struct(
    field('scaleTargetRef', crossVersionObjectReference),
    opt('minReplicas', ptr(go.int32)),
    field('maxReplicas', go.int32),
    opt('targetCPUUtilizationPercentage', ptr(go.int32)),
  ),
  status: struct(
    opt('observedGeneration', ptr(go.int64)),
    opt('lastScaleTime', ptr(go.time)),
    field('currentReplicas', go.int32),
    field('desiredReplicas', go.int32),
    opt('currentCPUUtilizationPercentage', ptr(go.int32)),
  ),
} as const;

const metricTarget = struct(
  field('type', go.string),
  opt('value', ptr(go.quantity)),
  opt('averageValue', ptr(go.quantity)),
  opt('averageUtilization', ptr(go.int32)),
);

const metricValueStatus = struct(
  opt('value', ptr(go.quantity)),
  opt('averageValue', ptr(go.quantity)),
  opt('averageUtilization', ptr(go.int32)),
);

const metricIdentifier = struct(field('name', go.string), opt('selector', ptr(labelSelector)));

const scalingRules = struct(
  opt('stabilizationWindowSeconds', ptr(go.int32)),
  opt('selectPolicy', ptr(go.string)),
  opt(
    'policies',
    slice(struct(field('type', go.string), field('value', go.int32), field('periodSeconds', go.int32))),
  ),
);

const v2MetricSpec = struct(
  field('type', go.string),
  opt(
    'object',
    ptr(
      struct(
        field('describedObject', crossVersionObjectReference),
        field('target', metricTarget),
        field('metric', metricIdentifier),
      ),
    ),
  ),
  opt('pods', ptr(struct(field('metric', metricIdentifier), field('target', metricTarget)))),
  opt('resource', ptr(struct(field('name', go.string), field('target', metricTarget)))),
  opt(
    'containerResource',
    ptr(struct(field('name', go.string), field('target', metricTarget), field('container', go.string))),
  ),
  opt('external', ptr(struct(field('metric', metricIdentifier), field('target', metricTarget)))),
);

const v2MetricStatus = struct(
  field('type', go.string),
  opt(
    'object',
    ptr(
      struct(
        field('metric', metricIdentifier),
        field('current', metricValueStatus),
        field('describedObject', crossVersionObjectReference),
      ),
    ),
  ),
  opt('pods', ptr(struct(field('metric', metricIdentifier), field('current', metricValueStatus)))),
  opt('resource', ptr(struct(field('name', go.string), field('current', metricValueStatus)))),
  opt(
    'containerResource',
    ptr(struct(field('name', go.string), field('current', metricValueStatus), field('container', go.string))),
  ),
  opt('external', ptr(struct(field('metric', metricIdentifier), field('current', metricValueStatus)))),
);

const v2Behavior = struct(opt('scaleUp', ptr(scalingRules)), opt('scaleDown', ptr(scalingRules)));

/** autoscaling/v2 types: the storage version. */
export const v2 = {
  metricSpec: v2MetricSpec,
  metricStatus: v2MetricStatus,
  condition: v1.condition,
  behavior: v2Behavior,
  spec: struct(
    field('scaleTargetRef', crossVersionObjectReference),
    opt('minReplicas', ptr(go.int32)),
    field('maxReplicas', go.int32),
    opt('metrics', slice(v2MetricSpec)),
    opt('behavior', ptr(v2Behavior)),
  ),
  status: struct(
    opt('observedGeneration', ptr(go.int64)),
    opt('lastScaleTime', ptr(go.time)),
    opt('currentReplicas', go.int32),
    field('desiredReplicas', go.int32),
    // No omitempty: a nil list prints as null.
    field('currentMetrics', slice(v2MetricStatus)),
    opt('conditions', slice(v1.condition)),
  ),
} as const;

const internalScalingRules = struct(
  field('StabilizationWindowSeconds', ptr(go.int32)),
  field('SelectPolicy', ptr(go.string)),
  field(
    'Policies',
    slice(struct(field('Type', go.string), field('Value', go.int32), field('PeriodSeconds', go.int32))),
  ),
);

/** Upstream's internal autoscaling.HorizontalPodAutoscalerBehavior: untagged, nothing omitted. */
export const internalBehavior = struct(
  field('ScaleUp', ptr(internalScalingRules)),
  field('ScaleDown', ptr(internalScalingRules)),
);
