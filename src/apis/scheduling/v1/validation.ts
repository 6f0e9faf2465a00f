/**
 * PriorityClass validation as pkg/apis/scheduling/validation (release-1.27), on scheduling/v1 JSON.
 * metadata is validated by the generic store first (DNS subdomain names), as upstream's
 * ValidateObjectMeta call comes first. Only one class may be `globalDefault`: upstream enforces that
 * in the Priority admission plugin, not here.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { fieldImmutableErrorMsg } from '../../../machinery/validation/objectmeta.js';
import { jsonEqual } from '../../../util/json.js';
import { bool, num, str } from '../../core/v1/access.js';
import {
  highestUserDefinablePriority,
  knownSystemPriorityClassError,
  systemPriorityClassPrefix,
} from './system.js';

const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** Upstream ValidatePreemptionPolicy (core validation), for a set preemptionPolicy. */
export function validatePreemptionPolicy(policy: string, path: FieldPath): FieldError[] {
  if (preemptionPolicies.includes(policy)) return [];
  if (policy === '') return [fieldErrors.required(path, '')];
  return [fieldErrors.notSupported(path, policy, preemptionPolicies)];
}

/** Upstream ValidatePriorityClass, after ValidateObjectMeta. */
export function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = num(pc, 'value') ?? 0;
  if (name.startsWith(systemPriorityClassPrefix)) {
    const why = knownSystemPriorityClassError(name, value, bool(pc, 'globalDefault') ?? false);
    if (why !== undefined) {
      errs.push(
        fieldErrors.forbidden(
          FieldPath.root('metadata', 'name'),
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
    }
  } else if (value > highestUserDefinablePriority) {
    errs.push(
      fieldErrors.forbidden(
        FieldPath.root('value'),
        `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`,
      ),
    );
  }
  const policy = str(pc, 'preemptionPolicy');
  if (policy !== undefined)
    errs.push(...validatePreemptionPolicy(policy, FieldPath.root('preemptionPolicy')));
  return errs;
}

/**
 * Upstream ValidatePriorityClassUpdate, after ValidateObjectMetaUpdate: value and preemptionPolicy
 * may not change. Nothing else is re-validated on update (a renamed prefix rule cannot apply: the
 * name is immutable).
 */
export function validatePriorityClassUpdate(pc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((num(pc, 'value') ?? 0) !== (num(old, 'value') ?? 0)) {
    errs.push(fieldErrors.forbidden(FieldPath.root('value'), 'may not be changed in an update.'));
  }
  const policy = pc['preemptionPolicy'] ?? null;
  if (!jsonEqual(policy, old['preemptionPolicy'] ?? null)) {
    errs.push(fieldErrors.invalid(FieldPath.root('preemptionPolicy'), policy, fieldImmutableErrorMsg));
  }
  return errs;
}
