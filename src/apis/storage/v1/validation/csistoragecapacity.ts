/**
 * CSIStorageCapacity validation as pkg/apis/storage/validation (release-1.27), on storage/v1 JSON;
 * metadata (namespaced, DNS subdomain names) is validated by the generic store first.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import type { KubeObject } from '../../../../machinery/object.js';
import {
  canonicalQuantityString,
  parseQuantityJSON,
  quantitySign,
} from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { isJsonObject, jsonEqual } from '../../../../util/json.js';
import { toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { obj, str } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { goSlice, goStringMap, warningsForNodeSelector } from './common.js';

const path = (name: string): FieldPath => FieldPath.root(name);

/** The decoder has already checked quantity syntax; anything else reads as unset. */
function quantityOf(v: unknown): Quantity | undefined {
  try {
    return parseQuantityJSON(v);
  } catch {
    return undefined;
  }
}

/** Upstream ValidateCSIStorageCapacity, after ValidateObjectMeta. */
export function validateCSIStorageCapacity(
  csc: KubeObject,
  opts: { readonly allowInvalidLabelValueInSelector: boolean },
): FieldError[] {
  const errs: FieldError[] = [];
  const topology = obj(csc, 'nodeTopology');
  if (topology !== undefined) {
    errs.push(...validateLabelSelector(toMetav1Selector(topology), path('nodeTopology'), opts));
  }
  const className = str(csc, 'storageClassName') ?? '';
  errs.push(...invalidEach(path('storageClassName'), className, isDNS1123Subdomain(className)));
  const capacity = quantityOf(csc['capacity']);
  if (capacity !== undefined && quantitySign(capacity) < 0) {
    errs.push(
      fieldErrors.invalid(
        path('capacity'),
        canonicalQuantityString(capacity),
        'must be greater than or equal to 0',
      ),
    );
  }
  return errs;
}

/** True when the stored selector has values strict validation rejects (they stay allowed on update). */
export function hasInvalidLabelValueInSelector(csc: KubeObject): boolean {
  const topology = obj(csc, 'nodeTopology');
  if (topology === undefined) return false;
  return (
    validateLabelSelector(toMetav1Selector(topology), path('nodeTopology'), {
      allowInvalidLabelValueInSelector: false,
    }).length > 0
  );
}

/** Go `%#v` of a v1.LabelSelector (dereferenced, as field errors print pointers). */
function goLabelSelector(sel: JsonObject): string {
  const exprs = sel['matchExpressions'];
  const reqs = Array.isArray(exprs)
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map((e) => {
          const r = isJsonObject(e) ? e : {};
          return (
            `v1.LabelSelectorRequirement{Key:${JSON.stringify(str(r, 'key') ?? '')}, ` +
            `Operator:${JSON.stringify(str(r, 'operator') ?? '')}, Values:${goSlice('string', r['values'])}}`
          );
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel['matchLabels'])}, MatchExpressions:${reqs}}`;
}

/** Upstream ValidateCSIStorageCapacityUpdate: nodeTopology and storageClassName are immutable. */
export function validateCSIStorageCapacityUpdate(csc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const topology = obj(csc, 'nodeTopology');
  if (!jsonEqual(topology, obj(old, 'nodeTopology'))) {
    errs.push(
      topology === undefined
        ? fieldErrors.invalid(path('nodeTopology'), null, fieldImmutableErrorMsg)
        : invalidRendered(path('nodeTopology'), goLabelSelector(topology), fieldImmutableErrorMsg),
    );
  }
  const className = str(csc, 'storageClassName') ?? '';
  if (className !== (str(old, 'storageClassName') ?? '')) {
    errs.push(fieldErrors.invalid(path('storageClassName'), className, fieldImmutableErrorMsg));
  }
  return errs;
}

/** pkg/api/storage GetWarningsForCSIStorageCapacity: deprecated node labels in nodeTopology. */
export function csiStorageCapacityWarnings(csc: KubeObject): string[] {
  return warningsForNodeSelector(obj(csc, 'nodeTopology'), path('nodeTopology'));
}
