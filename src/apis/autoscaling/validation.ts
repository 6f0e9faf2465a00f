/**
 * HorizontalPodAutoscaler validation as upstream pkg/apis/autoscaling/validation (release-1.27), on
 * autoscaling/v2 JSON (the storage version, which has the internal type's shape). Object metadata
 * is validated by the generic store.
 */
import { FieldError, FieldPath, fieldErrors, omitValue } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { parseQuantity } from '../../machinery/quantity/parse.js';
import { quantitySign } from '../../machinery/quantity/quantity.js';
import type { StrategyContext } from '../../machinery/validation-context.js';
import { isDNS1123Label, isValidPathSegmentName } from '../../machinery/validation/names.js';
import type { JsonObject } from '../../util/json.js';
import { indexedObjs, num, obj, str } from '../core/v1/access.js';
import { goQuantity } from './go-quantity.js';
import { validateContainerResourceName } from '../core/v1/validation/resource-names.js';

/** The largest scaling policy period, in seconds. */
export const maxPeriodSeconds = 1800;
/** The largest stabilization window, in seconds. */
export const maxStabilizationWindowSeconds = 3600;

export interface HorizontalPodAutoscalerSpecValidationOptions {
  /** 1, or 0 when scaling to zero is allowed (HPAScaleToZero, or already 0 before an update). */
  readonly minReplicasLowerBound: number;
  /**
   * HPAContainerMetrics (beta, on by default in v1.27); only the message for a missing
   * containerResource source depends on it here.
   */
  readonly containerMetrics: boolean;
}

/** The options upstream's strategy passes (validationOptionsForHorizontalPodAutoscaler). */
export function validationOptions(
  ctx: StrategyContext,
  old?: KubeObject,
): HorizontalPodAutoscalerSpecValidationOptions {
  const oldMin = num(obj(old, 'spec'), 'minReplicas');
  const zeroAllowed = ctx.features.enabled('HPAScaleToZero') || oldMin === 0;
  return {
    minReplicasLowerBound: zeroAllowed ? 0 : 1,
    containerMetrics: ctx.features.enabled('HPAContainerMetrics'),
  };
}

/** Upstream ValidateCrossVersionObjectReference. */
export function validateCrossVersionObjectReference(
  ref: JsonObject | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = str(ref, key) ?? '';
    const p = path.child(key);
    if (value === '') errs.push(fieldErrors.required(p));
    else for (const msg of isValidPathSegmentName(value)) errs.push(fieldErrors.invalid(p, value, msg));
  }
  return errs;
}

function validateMetricIdentifier(id: JsonObject | undefined, path: FieldPath): FieldError[] {
  const name = str(id, 'name') ?? '';
  const p = path.child('name');
  if (name === '') return [fieldErrors.required(p, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldErrors.invalid(p, name, msg));
}

/** A quantity that is set and not positive, as the Invalid error upstream reports. */
function notPositive(target: JsonObject | undefined, key: string, path: FieldPath): FieldError[] {
  const text = str(target, key);
  if (text === undefined) return [];
  let positive: boolean;
  try {
    positive = quantitySign(parseQuantity(text)) === 1;
  } catch {
    // Not a quantity at all: the decoder rejects these before validation.
    return [];
  }
  if (positive) return [];
  // The bad value is Go's %#v of the Quantity, rendered into the detail.
  return [
    new FieldError('FieldValueInvalid', path.child(key), omitValue, `${goQuantity(text)}: must be positive`),
  ];
}

function validateMetricTarget(target: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(target, 'type') ?? '';
  if (type === '') errs.push(fieldErrors.required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(
      fieldErrors.invalid(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'),
    );
  }
  errs.push(...notPositive(target, 'value', path));
  errs.push(...notPositive(target, 'averageValue', path));
  const utilization = num(target, 'averageUtilization');
  if (utilization !== undefined && utilization < 1) {
    errs.push(fieldErrors.invalid(path.child('averageUtilization'), utilization, 'must be greater than 0'));
  }
  return errs;
}

function has(o: JsonObject | undefined, key: string): boolean {
  return o?.[key] !== undefined && o[key] !== null;
}

function validateObjectSource(src: JsonObject, path: FieldPath): FieldError[] {
  const target = obj(src, 'target');
  const errs = [
    ...validateCrossVersionObjectReference(obj(src, 'describedObject'), path.child('describedObject')),
    ...validateMetricIdentifier(obj(src, 'metric'), path.child('metric')),
    ...validateMetricTarget(target, path.child('target')),
  ];
  if (!has(target, 'value') && !has(target, 'averageValue')) {
    errs.push(
      fieldErrors.required(
        path.child('target', 'averageValue'),
        'must set either a target value or averageValue',
      ),
    );
  }
  return errs;
}

function validateExternalSource(src: JsonObject, path: FieldPath): FieldError[] {
  const target = obj(src, 'target');
  const errs = [
    ...validateMetricIdentifier(obj(src, 'metric'), path.child('metric')),
    ...validateMetricTarget(target, path.child('target')),
  ];
  const value = has(target, 'value');
  const averageValue = has(target, 'averageValue');
  if (!value && !averageValue) {
    errs.push(
      fieldErrors.required(
        path.child('target', 'averageValue'),
        'must set either a target value for metric or a per-pod target',
      ),
    );
  }
  if (value && averageValue) {
    errs.push(
      fieldErrors.forbidden(
        path.child('target', 'value'),
        'may not set both a target value for metric and a per-pod target',
      ),
    );
  }
  return errs;
}

function validatePodsSource(src: JsonObject, path: FieldPath): FieldError[] {
  const target = obj(src, 'target');
  const errs = [
    ...validateMetricIdentifier(obj(src, 'metric'), path.child('metric')),
    ...validateMetricTarget(target, path.child('target')),
  ];
  if (!has(target, 'averageValue')) {
    errs.push(
      fieldErrors.required(
        path.child('target', 'averageValue'),
        'must specify a positive target averageValue',
      ),
    );
  }
  return errs;
}

/** The raw-value-or-utilization rule of Resource and ContainerResource targets. */
function validateUtilizationTarget(target: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(target, path);
  const utilization = has(target, 'averageUtilization');
  const averageValue = has(target, 'averageValue');
  if (!utilization && !averageValue) {
    errs.push(
      fieldErrors.required(
        path.child('averageUtilization'),
        'must set either a target raw value or a target utilization',
      ),
    );
  }
  if (utilization && averageValue) {
    errs.push(
      fieldErrors.forbidden(
        path.child('averageValue'),
        'may not set both a target raw value and a target utilization',
      ),
    );
  }
  return errs;
}

function validateResourceSource(src: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((str(src, 'name') ?? '') === '') {
    errs.push(fieldErrors.required(path.child('name'), 'must specify a resource name'));
  }
  errs.push(...validateUtilizationTarget(obj(src, 'target'), path.child('target')));
  return errs;
}

function validateContainerResourceSource(src: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(src, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(path.child('name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, path.child('name')));
  const container = str(src, 'container') ?? '';
  const containerPath = path.child('container');
  if (container === '') errs.push(fieldErrors.required(containerPath, 'must specify a container'));
  else {
    for (const msg of isDNS1123Label(container))
      errs.push(fieldErrors.invalid(containerPath, container, msg));
  }
  errs.push(...validateUtilizationTarget(obj(src, 'target'), path.child('target')));
  return errs;
}

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** Source field of each metric type, in the order upstream looks at them. */
const sources: readonly (readonly [
  field: string,
  type: string,
  validate: (src: JsonObject, path: FieldPath) => FieldError[],
])[] = [
  ['object', 'Object', validateObjectSource],
  ['external', 'External', validateExternalSource],
  ['pods', 'Pods', validatePodsSource],
  ['resource', 'Resource', validateResourceSource],
  ['containerResource', 'ContainerResource', validateContainerResourceSource],
];

function validateMetricSpec(
  spec: JsonObject,
  path: FieldPath,
  opts: HorizontalPodAutoscalerSpecValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec, 'type') ?? '';
  const typePath = path.child('type');
  if (type === '') errs.push(fieldErrors.required(typePath, 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type))
    errs.push(fieldErrors.notSupported(typePath, type, metricSourceTypes));

  // Only the first source present is validated; any other is reported below.
  const present: string[] = [];
  for (const [field, , validate] of sources) {
    const src = obj(spec, field);
    if (src === undefined) continue;
    present.push(field);
    if (present.length === 1) errs.push(...validate(src, path.child(field)));
  }

  const expected = sources.find(([, t]) => t === type)?.[0];
  if (expected === undefined) {
    errs.push(fieldErrors.notSupported(typePath, type, metricSourceTypes));
  } else if (!present.includes(expected)) {
    const detail =
      expected !== 'containerResource' || opts.containerMetrics
        ? 'must populate information for the given metric source'
        : 'must populate information for the given metric source (only allowed when HPAContainerMetrics feature is enabled)';
    errs.push(fieldErrors.required(path.child(expected), detail));
  }
  if (present.length !== 1) {
    // Upstream walks a Go map here, in no fixed order; this is the order of the checks above.
    for (const field of present) {
      if (field !== expected) {
        errs.push(fieldErrors.forbidden(path.child(field), 'must populate the given metric source only'));
      }
    }
  }
  return errs;
}

function validateMetrics(
  spec: JsonObject,
  path: FieldPath,
  opts: HorizontalPodAutoscalerSpecValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  let objectOrExternal = false;
  for (const [i, m] of indexedObjs(spec, 'metrics')) {
    errs.push(...validateMetricSpec(m, path.index(i), opts));
    const type = str(m, 'type');
    if (type === 'Object' || type === 'External') objectOrExternal = true;
  }
  if (num(spec, 'minReplicas') === 0 && !objectOrExternal) {
    errs.push(
      fieldErrors.forbidden(
        path,
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  }
  return errs;
}

const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];

function validateScalingPolicy(policy: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(policy, 'type') ?? '';
  if (!policyTypes.includes(type)) errs.push(fieldErrors.notSupported(path.child('type'), type, policyTypes));
  const value = num(policy, 'value') ?? 0;
  if (value <= 0) errs.push(fieldErrors.invalid(path.child('value'), value, 'must be greater than zero'));
  const period = num(policy, 'periodSeconds') ?? 0;
  const periodPath = path.child('periodSeconds');
  if (period <= 0) errs.push(fieldErrors.invalid(periodPath, period, 'must be greater than zero'));
  if (period > maxPeriodSeconds) {
    errs.push(fieldErrors.invalid(periodPath, period, `must be less than or equal to ${maxPeriodSeconds}`));
  }
  return errs;
}

function validateScalingRules(rules: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (rules === undefined) return [];
  const errs: FieldError[] = [];
  const window = num(rules, 'stabilizationWindowSeconds');
  const windowPath = path.child('stabilizationWindowSeconds');
  if (window !== undefined && window < 0) {
    errs.push(fieldErrors.invalid(windowPath, window, 'must be greater than or equal to zero'));
  }
  if (window !== undefined && window > maxStabilizationWindowSeconds) {
    errs.push(
      fieldErrors.invalid(
        windowPath,
        window,
        `must be less than or equal to ${maxStabilizationWindowSeconds}`,
      ),
    );
  }
  const select = str(rules, 'selectPolicy');
  if (select !== undefined && !selectPolicies.includes(select)) {
    errs.push(fieldErrors.notSupported(path.child('selectPolicy'), select, selectPolicies));
  }
  const policiesPath = path.child('policies');
  const policies = rules['policies'];
  if (!Array.isArray(policies) || policies.length === 0) {
    errs.push(fieldErrors.required(policiesPath, 'must specify at least one Policy'));
  }
  for (const [i, p] of indexedObjs(rules, 'policies')) {
    errs.push(...validateScalingPolicy(p, policiesPath.index(i)));
  }
  return errs;
}

function validateBehavior(behavior: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (behavior === undefined) return [];
  return [
    ...validateScalingRules(obj(behavior, 'scaleUp'), path.child('scaleUp')),
    ...validateScalingRules(obj(behavior, 'scaleDown'), path.child('scaleDown')),
  ];
}

/** Upstream validateHorizontalPodAutoscalerSpec. */
export function validateHorizontalPodAutoscalerSpec(
  spec: JsonObject,
  path: FieldPath,
  opts: HorizontalPodAutoscalerSpecValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const min = num(spec, 'minReplicas');
  const max = num(spec, 'maxReplicas') ?? 0;
  const bound = opts.minReplicasLowerBound;
  if (min !== undefined && min < bound) {
    errs.push(
      fieldErrors.invalid(path.child('minReplicas'), min, `must be greater than or equal to ${bound}`),
    );
  }
  if (max < 1) errs.push(fieldErrors.invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) {
    errs.push(
      fieldErrors.invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'),
    );
  }
  errs.push(
    ...validateCrossVersionObjectReference(obj(spec, 'scaleTargetRef'), path.child('scaleTargetRef')),
  );
  errs.push(...validateMetrics(spec, path.child('metrics'), opts));
  errs.push(...validateBehavior(obj(spec, 'behavior'), path.child('behavior')));
  return errs;
}

const specPath = FieldPath.root('spec');

/** Upstream ValidateHorizontalPodAutoscaler (create). */
export function validateHorizontalPodAutoscaler(ctx: StrategyContext, hpa: KubeObject): FieldError[] {
  return validateHorizontalPodAutoscalerSpec(obj(hpa, 'spec') ?? {}, specPath, validationOptions(ctx));
}

/** Upstream ValidateHorizontalPodAutoscalerUpdate: the spec again; minReplicas 0 may stay. */
export function validateHorizontalPodAutoscalerUpdate(
  ctx: StrategyContext,
  hpa: KubeObject,
  old: KubeObject,
): FieldError[] {
  return validateHorizontalPodAutoscalerSpec(obj(hpa, 'spec') ?? {}, specPath, validationOptions(ctx, old));
}

/** Upstream ValidateHorizontalPodAutoscalerStatusUpdate: replica counts are not negative. */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: KubeObject): FieldError[] {
  const status = obj(hpa, 'status');
  const errs: FieldError[] = [];
  for (const key of ['currentReplicas', 'desiredReplicas']) {
    const v = num(status, key) ?? 0;
    if (v < 0) {
      errs.push(fieldErrors.invalid(FieldPath.root('status', key), v, 'must be greater than or equal to 0'));
    }
  }
  return errs;
}
