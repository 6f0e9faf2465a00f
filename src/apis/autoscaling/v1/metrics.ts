/**
 * Metric specs and statuses between autoscaling/v2 and the autoscaling/v1 shapes kept in the
 * round-trip annotations (upstream's per-source Convert_* functions of
 * pkg/apis/autoscaling/v1/conversion.go). Both sides are go-json values: every non-pointer field
 * present, nil pointers absent.
 */
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';

type Source = JsonObject | undefined;

function sub(o: Source, key: string): Source {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

/** An object of the defined entries only (nil pointers stay out). */
function fields(entries: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
  return out;
}

function ref(r: Source): JsonObject {
  return fields({ kind: r?.['kind'], name: r?.['name'], apiVersion: r?.['apiVersion'] });
}

/** autoscaling/v2 MetricSpec → autoscaling/v1 MetricSpec. */
export function metricSpecToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m['type'] ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    const target = sub(object, 'target');
    const metric = sub(object, 'metric');
    out['object'] = fields({
      target: ref(sub(object, 'describedObject')),
      metricName: metric?.['name'],
      targetValue: target?.['value'],
      selector: metric?.['selector'],
      averageValue: target?.['averageValue'],
    });
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    const metric = sub(pods, 'metric');
    out['pods'] = fields({
      metricName: metric?.['name'],
      targetAverageValue: sub(pods, 'target')?.['averageValue'],
      selector: metric?.['selector'],
    });
  }
  for (const key of ['resource', 'containerResource']) {
    const r = sub(m, key);
    if (r === undefined) continue;
    const target = sub(r, 'target');
    out[key] = fields({
      name: r['name'],
      targetAverageUtilization: target?.['averageUtilization'],
      targetAverageValue: target?.['averageValue'],
      container: key === 'containerResource' ? r['container'] : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    const target = sub(external, 'target');
    const metric = sub(external, 'metric');
    out['external'] = fields({
      metricName: metric?.['name'],
      metricSelector: metric?.['selector'],
      targetValue: target?.['value'],
      targetAverageValue: target?.['averageValue'],
    });
  }
  return out;
}

/** autoscaling/v1 MetricSpec → autoscaling/v2 MetricSpec (target types derived as upstream). */
export function metricSpecToV2(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m['type'] ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    const averageValue = object['averageValue'];
    out['object'] = {
      describedObject: ref(sub(object, 'target')),
      target: fields({
        type: averageValue === undefined ? 'Value' : 'AverageValue',
        // Upstream takes the address of the (non-pointer) v1 targetValue: always set.
        value: object['targetValue'] ?? '0',
        averageValue,
      }),
      metric: fields({ name: object['metricName'], selector: object['selector'] }),
    };
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    out['pods'] = {
      metric: fields({ name: pods['metricName'], selector: pods['selector'] }),
      target: { type: 'AverageValue', averageValue: pods['targetAverageValue'] ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource']) {
    const r = sub(m, key);
    if (r === undefined) continue;
    const utilization = r['targetAverageUtilization'];
    out[key] = fields({
      name: r['name'],
      target: fields({
        type: utilization === undefined ? 'AverageValue' : 'Utilization',
        averageValue: r['targetAverageValue'],
        averageUtilization: utilization,
      }),
      container: key === 'containerResource' ? r['container'] : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    const value = external['targetValue'];
    out['external'] = {
      metric: fields({ name: external['metricName'], selector: external['metricSelector'] }),
      target: fields({
        type: value === undefined ? 'AverageValue' : 'Value',
        value,
        averageValue: external['targetAverageValue'],
      }),
    };
  }
  return out;
}

/** autoscaling/v2 MetricStatus → autoscaling/v1 MetricStatus. */
export function metricStatusToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m['type'] ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    const current = sub(object, 'current');
    const metric = sub(object, 'metric');
    out['object'] = fields({
      target: ref(sub(object, 'describedObject')),
      metricName: metric?.['name'],
      currentValue: current?.['value'],
      selector: metric?.['selector'],
      averageValue: current?.['averageValue'],
    });
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    const metric = sub(pods, 'metric');
    out['pods'] = fields({
      metricName: metric?.['name'],
      currentAverageValue: sub(pods, 'current')?.['averageValue'],
      selector: metric?.['selector'],
    });
  }
  for (const key of ['resource', 'containerResource']) {
    const r = sub(m, key);
    if (r === undefined) continue;
    const current = sub(r, 'current');
    out[key] = fields({
      name: r['name'],
      currentAverageUtilization: current?.['averageUtilization'],
      currentAverageValue: current?.['averageValue'],
      container: key === 'containerResource' ? r['container'] : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    const current = sub(external, 'current');
    const metric = sub(external, 'metric');
    out['external'] = fields({
      metricName: metric?.['name'],
      metricSelector: metric?.['selector'],
      currentValue: current?.['value'],
      currentAverageValue: current?.['averageValue'],
    });
  }
  return out;
}

/** autoscaling/v1 MetricStatus → autoscaling/v2 MetricStatus. */
export function metricStatusToV2(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m['type'] ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    out['object'] = {
      metric: fields({ name: object['metricName'], selector: object['selector'] }),
      current: fields({ value: object['currentValue'] ?? '0', averageValue: object['averageValue'] }),
      describedObject: ref(sub(object, 'target')),
    };
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    out['pods'] = {
      metric: fields({ name: pods['metricName'], selector: pods['selector'] }),
      current: { averageValue: pods['currentAverageValue'] ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource']) {
    const r = sub(m, key);
    if (r === undefined) continue;
    out[key] = fields({
      name: r['name'],
      current: fields({
        averageValue: r['currentAverageValue'] ?? '0',
        averageUtilization: r['currentAverageUtilization'],
      }),
      container: key === 'containerResource' ? r['container'] : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    out['external'] = {
      metric: fields({ name: external['metricName'], selector: external['metricSelector'] }),
      current: fields({
        value: external['currentValue'] ?? '0',
        averageValue: external['currentAverageValue'],
      }),
    };
  }
  return out;
}

function rulesToInternal(r: Source): JsonObject | undefined {
  if (r === undefined) return undefined;
  const policies = r['policies'];
  return fields({
    StabilizationWindowSeconds: r['stabilizationWindowSeconds'],
    SelectPolicy: r['selectPolicy'],
    Policies: Array.isArray(policies)
      ? policies.map((p) =>
          isJsonObject(p)
            ? { Type: p['type'] ?? '', Value: p['value'] ?? 0, PeriodSeconds: p['periodSeconds'] ?? 0 }
            : {},
        )
      : undefined,
  });
}

function rulesFromInternal(r: Source): JsonObject | undefined {
  if (r === undefined) return undefined;
  const policies = r['Policies'];
  return fields({
    stabilizationWindowSeconds: r['StabilizationWindowSeconds'],
    selectPolicy: r['SelectPolicy'],
    policies: Array.isArray(policies)
      ? policies.map((p) =>
          isJsonObject(p)
            ? { type: p['Type'] ?? '', value: p['Value'] ?? 0, periodSeconds: p['PeriodSeconds'] ?? 0 }
            : {},
        )
      : undefined,
  });
}

/** autoscaling/v2 HorizontalPodAutoscalerBehavior → the internal type's Go field names. */
export function behaviorToInternal(b: JsonObject): JsonObject {
  return fields({
    ScaleUp: rulesToInternal(sub(b, 'scaleUp')),
    ScaleDown: rulesToInternal(sub(b, 'scaleDown')),
  });
}

/** The internal behavior (Go field names) → autoscaling/v2 HorizontalPodAutoscalerBehavior. */
export function behaviorFromInternal(b: JsonObject): JsonObject {
  return fields({
    scaleUp: rulesFromInternal(sub(b, 'ScaleUp')),
    scaleDown: rulesFromInternal(sub(b, 'ScaleDown')),
  });
}
