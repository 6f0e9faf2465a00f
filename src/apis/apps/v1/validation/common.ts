/**
 * Validation pieces shared by the workload kinds (apps and batch): non-negative numbers, label
 * selectors against template labels, int-or-percent values, immutable selectors.
 */
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../../machinery/field/errors.js';
import { toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import { isNegativeErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import { isValidPercent } from '../../../../machinery/validation/names.js';
import { isJsonObject, jsonEqual } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { num, obj, str, strMap } from '../../../core/v1/access.js';
import { goIntOrString, goLabelSelector, goStringMap, invalidGo } from './gorender.js';

export const immutableMsg = 'field is immutable';

/** Upstream ValidateNonnegativeField. */
export function nonNegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErrors.invalid(path, value, isNegativeErrorMsg)] : [];
}

function selectorSize(sel: JsonObject): number {
  const labels = sel['matchLabels'];
  const exprs = sel['matchExpressions'];
  return (isJsonObject(labels) ? Object.keys(labels).length : 0) + (Array.isArray(exprs) ? exprs.length : 0);
}

/**
 * The selector rules of Deployment, ReplicaSet and StatefulSet specs: required, well formed, not
 * empty (`empty selector is invalid for <kind>`).
 */
export function validateRequiredSelector(spec: JsonObject, path: FieldPath, kindWord: string): FieldError[] {
  const sel = obj(spec, 'selector');
  if (sel === undefined) return [fieldErrors.required(path.child('selector'), '')];
  const errs = validateLabelSelector(toMetav1Selector(sel), path.child('selector'));
  if (selectorSize(sel) === 0) {
    errs.push(
      invalidGo(path.child('selector'), goLabelSelector(sel), `empty selector is invalid for ${kindWord}`),
    );
  }
  return errs;
}

/** True when a selector object exists and has no requirements at all. */
export function isEmptySelectorObject(sel: JsonObject | undefined): boolean {
  return sel !== undefined && selectorSize(sel) === 0;
}

/** `<path>.metadata.labels: Invalid value: map[...]: `selector` does not match template `labels``. */
export function templateLabelsMismatch(
  template: JsonObject | undefined,
  templatePath: FieldPath,
): FieldError {
  const labels = obj(template, 'metadata')?.['labels'];
  return invalidGo(
    templatePath.child('metadata', 'labels'),
    goStringMap(labels),
    '`selector` does not match template `labels`',
  );
}

export function templateLabels(template: JsonObject | undefined): Record<string, string> | undefined {
  return strMap(obj(template, 'metadata'), 'labels');
}

/** Upstream ValidateImmutableField for a label selector (`spec.selector`). */
export function immutableSelector(
  newSel: JsonValue | undefined,
  oldSel: JsonValue | undefined,
  path: FieldPath,
): FieldError[] {
  if (jsonEqual(newSel ?? null, oldSel ?? null)) return [];
  return [invalidGo(path, goLabelSelector(newSel), immutableMsg)];
}

/** Upstream ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(v: JsonValue | undefined, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => invalidGo(path, goIntOrString(v), msg));
  if (typeof v === 'number') return nonNegative(v, path);
  return [];
}

function percentValue(v: JsonValue | undefined): number | undefined {
  if (typeof v !== 'string' || isValidPercent(v).length > 0) return undefined;
  return Number.parseInt(v.slice(0, -1), 10);
}

/** Upstream getIntOrPercentValue: the percent number, the int, or 0 (IntValue of a bad string). */
export function intOrPercentValue(v: JsonValue | undefined): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number.parseInt(v, 10);
    return /^[+-]?\d+$/.test(v) && Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** Upstream IsNotMoreThan100Percent. */
export function notMoreThan100Percent(v: JsonValue | undefined, path: FieldPath): FieldError[] {
  const p = percentValue(v);
  if (p === undefined || p <= 100) return [];
  return [invalidGo(path, goIntOrString(v), 'must not be greater than 100%')];
}

/**
 * Pods of ReplicaSets, Deployments, StatefulSets and DaemonSets must restart Always and may not
 * set activeDeadlineSeconds (upstream repeats this check per workload, naming the kind).
 */
export function validateWorkloadPodSpec(
  podSpec: JsonObject | undefined,
  templatePath: FieldPath,
  kindWord: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const restartPolicy = str(podSpec, 'restartPolicy') ?? '';
  if (restartPolicy !== 'Always') {
    errs.push(
      fieldErrors.notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, ['Always']),
    );
  }
  if (num(podSpec, 'activeDeadlineSeconds') !== undefined) {
    errs.push(
      fieldErrors.forbidden(
        templatePath.child('spec', 'activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${kindWord} is not Supported`,
      ),
    );
  }
  return errs;
}
