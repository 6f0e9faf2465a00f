/**
 * Resource names and quantities as quota, limit ranges and volumes validate them (upstream
 * pkg/apis/core/helper's standard name sets, validateResourceName, ValidateResourceQuantityValue),
 * and the Go `%#v` rendering of resource.Quantity values these messages print.
 */
import { FieldError, fieldErrors, goQuote, omitValue } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import {
  canonicalQuantityString,
  compareQuantity,
  parseQuantityJSON,
  quantityMilliValue,
  quantityValue,
} from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import { isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { invalidEach, quantityAt } from './common.js';

const standardResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
  'requests.storage',
  'storage',
]);

const standardQuotaResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);

const integerResources = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

export function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

export function isStandardResourceName(name: string): boolean {
  return standardResources.has(name) || isQuotaHugePageResourceName(name);
}

export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
}

export function isStandardContainerResourceName(name: string): boolean {
  return standardContainerResources.has(name) || name.startsWith('hugepages-');
}

/** No domain, or a kubernetes.io domain. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

/** Resources whose request must equal their limit (upstream IsOvercommitAllowed is the negation). */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith('hugepages-');
}

/** Upstream validateResourceName: qualified, and standard unless it has a domain. */
export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = invalidEach(path, name, isQualifiedName(name));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** Upstream validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) {
      errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** Upstream ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for quota'));
  }
  return errs;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * Go's `%#v` of a resource.Quantity value, as field errors print one. The quantity is the
 * canonical text kube-apiserver keeps, so the internal representation of a non-canonical input
 * (e.g. `1.5` stored as `1500m`) is that of its canonical form.
 */
export function goQuantity(q: Quantity): string {
  const small = q.mantissa >= int64Min && q.mantissa <= int64Max && q.exponent >= -9;
  const i = small
    ? `resource.int64Amount{value:${q.mantissa}, scale:${q.exponent}}`
    : 'resource.int64Amount{value:0, scale:0}';
  const d = small ? '(*inf.Dec)(nil)' : '(*inf.Dec)(0xc000010000)';
  return `resource.Quantity{i:${i}, d:resource.infDecAmount{Dec:${d}}, s:${goQuote(q.cached ?? '')}, Format:${goQuote(q.format)}}`;
}

/** An Invalid error whose value is a Quantity (printed as Go's `%#v`). */
export function invalidQuantity(path: FieldPath, q: Quantity, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, omitValue, `${goQuantity(q)}: ${detail}`);
}

/** Go's `%#v` of a core.ResourceList (keys sorted as fmt prints maps). */
export function goResourceList(list: JsonObject | undefined): string {
  if (list === undefined) return 'core.ResourceList(nil)';
  const parts = Object.keys(list)
    .sort()
    .map((k) => {
      let q: Quantity | undefined;
      try {
        q = parseQuantityJSON(list[k]);
      } catch {
        q = undefined;
      }
      return `${goQuote(k)}:${q === undefined ? 'resource.Quantity{}' : goQuantity(q)}`;
    });
  return `core.ResourceList{${parts.join(', ')}}`;
}

export const quantityString = canonicalQuantityString;

/** The quantities of a resource list by name, sorted; unparsable values become errors. */
export function quantities(
  list: JsonObject | undefined,
  path: FieldPath,
  errs: FieldError[],
): [string, Quantity][] {
  const out: [string, Quantity][] = [];
  for (const name of Object.keys(list ?? {}).sort()) {
    const q = quantityAt(list?.[name], path.key(name));
    if (q instanceof FieldError) errs.push(q);
    else out.push([name, q]);
  }
  return out;
}

/** Upstream ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, path: FieldPath): FieldError[] {
  return q.mantissa < 0n
    ? [fieldErrors.invalid(path, canonicalQuantityString(q), 'must be greater than or equal to 0')]
    : [];
}

/** Upstream ValidatePositiveQuantityValue. */
export function validatePositiveQuantityValue(q: Quantity, path: FieldPath): FieldError[] {
  return q.mantissa <= 0n
    ? [fieldErrors.invalid(path, canonicalQuantityString(q), 'must be greater than zero')]
    : [];
}

/** Upstream ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs = validateNonnegativeQuantity(q, path);
  if (isIntegerResourceName(name) && quantityMilliValue(q) % 1000n !== 0n) {
    errs.push(invalidQuantity(path, q, 'must be an integer'));
  }
  return errs;
}

/** Upstream validateBasicResource: Value() must not be negative. */
export function validateBasicResource(q: Quantity, path: FieldPath): FieldError[] {
  const v = quantityValue(q);
  return v < 0n ? [fieldErrors.invalid(path, Number(v), 'must be a valid resource quantity')] : [];
}

export { compareQuantity };
