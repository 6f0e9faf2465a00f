/** Lease validation as pkg/apis/coordination/validation (release-1.27), on coordination/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { num, obj } from '../../core/v1/access.js';

/** Upstream ValidateLeaseSpec (the same on create and update). */
export function validateLeaseSpec(lease: KubeObject): FieldError[] {
  const path = FieldPath.root('spec');
  const spec = obj(lease, 'spec');
  const errs: FieldError[] = [];
  const duration = num(spec, 'leaseDurationSeconds');
  if (duration !== undefined && duration <= 0) {
    errs.push(fieldErrors.invalid(path.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  }
  const transitions = num(spec, 'leaseTransitions');
  if (transitions !== undefined && transitions < 0) {
    errs.push(
      fieldErrors.invalid(path.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'),
    );
  }
  return errs;
}
