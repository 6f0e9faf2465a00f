/** Namespace validation (upstream ValidateNamespace, status and finalize updates). */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj, str, strArr } from '../access.js';
import { validateQualifiedName } from './common.js';

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Upstream validateFinalizerName for namespace spec finalizers. */
export function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    return [
      fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'),
    ];
  }
  return [];
}

export function validateNamespace(ns: JsonObject): FieldError[] {
  const path = FieldPath.root('spec', 'finalizers');
  return strArr(obj(ns, 'spec'), 'finalizers').flatMap((f) => validateFinalizerName(f, path));
}

export function validateNamespaceStatusUpdate(ns: JsonObject): FieldError[] {
  const phase = str(obj(ns, 'status'), 'phase') ?? '';
  const path = FieldPath.root('status', 'Phase');
  const deleting = (str(obj(ns, 'metadata'), 'deletionTimestamp') ?? '') !== '';
  if (!deleting && phase !== 'Active') {
    return [fieldErrors.invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  if (deleting && phase !== 'Terminating') {
    return [
      fieldErrors.invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"),
    ];
  }
  return [];
}
