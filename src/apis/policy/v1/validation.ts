/**
 * PodDisruptionBudget validation as pkg/apis/policy/validation (release-1.27), on policy/v1 JSON.
 * Upstream validates only the spec here: metadata gets the generic checks with path-segment names.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../machinery/labels/selector.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import { isQualifiedName, regexError } from '../../../machinery/validation/names.js';
import { isNegativeErrorMsg } from '../../../machinery/validation/objectmeta.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { indexedObjs, num, obj, str } from '../../core/v1/access.js';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from '../../apps/v1/validation/common.js';
import { toMetav1Selector } from '../../../machinery/labels/metav1.js';

/** Upstream supportedUnhealthyPodEvictionPolicies, as sets.String.List() sorts them. */
export const unhealthyPodEvictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];
const fakePointer = '0xc000010000';

function goPointer(type: string, v: JsonValue | undefined): string {
  return `(*${type})(${v === undefined || v === null ? 'nil' : fakePointer})`;
}

/** Go `%#v` of the internal policy.PodDisruptionBudgetSpec (every field a pointer). */
function goSpec(spec: JsonObject): string {
  return (
    `policy.PodDisruptionBudgetSpec{MinAvailable:${goPointer('intstr.IntOrString', spec['minAvailable'])}, ` +
    `Selector:${goPointer('v1.LabelSelector', spec['selector'])}, ` +
    `MaxUnavailable:${goPointer('intstr.IntOrString', spec['maxUnavailable'])}, ` +
    `UnhealthyPodEvictionPolicy:${goPointer('policy.UnhealthyPodEvictionPolicyType', spec['unhealthyPodEvictionPolicy'])}}`
  );
}

export interface PodDisruptionBudgetValidationOptions {
  /** Kept invalid label values in a stored selector valid on update (upstream's ratcheting). */
  readonly allowInvalidLabelValueInSelector: boolean;
}

/** Upstream ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(
  spec: JsonObject,
  opts: PodDisruptionBudgetValidationOptions,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const minAvailable = spec['minAvailable'];
  const maxUnavailable = spec['maxUnavailable'];
  const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
  if (isSet(minAvailable) && isSet(maxUnavailable)) {
    errs.push(invalidRendered(path, goSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (isSet(minAvailable)) {
    errs.push(...validatePositiveIntOrPercent(minAvailable, path.child('minAvailable')));
    errs.push(...notMoreThan100Percent(minAvailable, path.child('minAvailable')));
  }
  if (isSet(maxUnavailable)) {
    errs.push(...validatePositiveIntOrPercent(maxUnavailable, path.child('maxUnavailable')));
    errs.push(...notMoreThan100Percent(maxUnavailable, path.child('maxUnavailable')));
  }
  errs.push(
    ...validateLabelSelector(toMetav1Selector(obj(spec, 'selector')), path.child('selector'), {
      allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector,
    }),
  );
  const policy = str(spec, 'unhealthyPodEvictionPolicy');
  if (policy !== undefined && !unhealthyPodEvictionPolicies.includes(policy)) {
    errs.push(
      fieldErrors.notSupported(
        path.child('unhealthyPodEvictionPolicy'),
        policy,
        unhealthyPodEvictionPolicies,
      ),
    );
  }
  return errs;
}

/** Upstream ValidatePodDisruptionBudget. */
export function validatePodDisruptionBudget(
  pdb: KubeObject,
  opts: PodDisruptionBudgetValidationOptions,
): FieldError[] {
  return validatePodDisruptionBudgetSpec(obj(pdb, 'spec') ?? {}, opts, FieldPath.root('spec'));
}

/** Upstream hasInvalidLabelValueInLabelSelector: the stored selector fails today's strict checks. */
export function hasInvalidLabelValueInLabelSelector(pdb: KubeObject): boolean {
  const sel = obj(obj(pdb, 'spec'), 'selector');
  if (sel === undefined) return false;
  return validateLabelSelector(toMetav1Selector(sel), FieldPath.root('selector')).length > 0;
}

const conditionStatuses = ['False', 'True', 'Unknown'];
const maxReasonLen = 1024;
const maxMessageLen = 32 * 1024;
const conditionReasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const conditionReasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const conditionReasonRegexp = new RegExp(`^${conditionReasonFmt}$`);

function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function isZeroTime(v: JsonValue | undefined): boolean {
  if (typeof v !== 'string' || v === '') return true;
  const t = Date.parse(v);
  return Number.isNaN(t) || t === Date.parse('0001-01-01T00:00:00Z');
}

/** metav1 validation.ValidateCondition. */
function validateCondition(c: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(c, 'type') ?? '';
  for (const msg of isQualifiedName(type)) errs.push(fieldErrors.invalid(path.child('type'), type, msg));
  const status = str(c, 'status') ?? '';
  if (!conditionStatuses.includes(status)) {
    errs.push(fieldErrors.notSupported(path.child('status'), status, conditionStatuses));
  }
  const observed = num(c, 'observedGeneration') ?? 0;
  if (observed < 0) {
    errs.push(
      fieldErrors.invalid(
        path.child('observedGeneration'),
        observed,
        'must be greater than or equal to zero',
      ),
    );
  }
  if (isZeroTime(c['lastTransitionTime'])) {
    errs.push(fieldErrors.required(path.child('lastTransitionTime'), 'must be set'));
  }
  const reason = str(c, 'reason') ?? '';
  if (reason === '') {
    errs.push(fieldErrors.required(path.child('reason'), 'must be set'));
  } else {
    if (!conditionReasonRegexp.test(reason)) {
      errs.push(
        fieldErrors.invalid(
          path.child('reason'),
          reason,
          regexError(
            conditionReasonErrMsg,
            conditionReasonFmt,
            'my_name',
            'MY_NAME',
            'MyName',
            'ReasonA,ReasonB',
            'ReasonA:ReasonB',
          ),
        ),
      );
    }
    if (byteLen(reason) > maxReasonLen)
      errs.push(fieldErrors.tooLong(path.child('reason'), reason, maxReasonLen));
  }
  const message = str(c, 'message') ?? '';
  if (byteLen(message) > maxMessageLen) {
    errs.push(fieldErrors.tooLong(path.child('message'), message, maxMessageLen));
  }
  return errs;
}

/** metav1 validation.ValidateConditions: type is unique, and each condition is well formed. */
export function validateConditions(status: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, c] of indexedObjs(status, 'conditions')) {
    const type = str(c, 'type') ?? '';
    if (seen.has(type)) errs.push(fieldErrors.duplicate(path.index(i).child('type'), type));
    else seen.add(type);
    errs.push(...validateCondition(c, path.index(i)));
  }
  return errs;
}

/** Upstream ValidatePodDisruptionBudgetStatusUpdate for policy/v1. */
export function validatePodDisruptionBudgetStatusUpdate(pdb: KubeObject): FieldError[] {
  const path = FieldPath.root('status');
  const status = obj(pdb, 'status');
  const errs = validateConditions(status, path.child('conditions'));
  for (const key of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) {
    const v = num(status, key) ?? 0;
    if (v < 0) errs.push(fieldErrors.invalid(path.child(key), v, isNegativeErrorMsg));
  }
  return errs;
}
