/** ControllerRevision validation as pkg/apis/apps/validation (release-1.27). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { jsonEqual } from '../../../../util/json.js';
import { num } from '../../../core/v1/access.js';
import { immutableMsg, nonNegative } from './common.js';

export function validateControllerRevision(cr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (cr['data'] === undefined || cr['data'] === null) {
    errs.push(fieldErrors.required(FieldPath.root('data'), 'data is mandatory'));
  }
  errs.push(...nonNegative(num(cr, 'revision') ?? 0, FieldPath.root('revision')));
  return errs;
}

/** Data may not change; the rest is validated as on create. */
export function validateControllerRevisionUpdate(cr: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateControllerRevision(cr);
  if (!jsonEqual(cr['data'] ?? null, old['data'] ?? null)) {
    errs.push(fieldErrors.invalid(FieldPath.root('data'), cr['data'] ?? null, immutableMsg));
  }
  return errs;
}
