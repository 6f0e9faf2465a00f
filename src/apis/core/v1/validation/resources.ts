/** Container resource requirements (upstream ValidateResourceRequirements, simplified). */
import { FieldError, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import { canonicalQuantityString, compareQuantity } from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import { isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { obj } from '../access.js';
import { invalidEach, quantityAt } from './common.js';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** Native resources (no domain or a kubernetes.io domain) must not be overcommitted if not cpu/memory/storage. */
function isOvercommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !isHugePages(name);
}

function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = invalidEach(path, name, isQualifiedName(name));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePages(name)) {
      errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (name.includes('kubernetes.io/') || name.startsWith('requests.')) {
    errs.push(fieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function quantities(
  list: JsonObject | undefined,
  path: FieldPath,
  errs: FieldError[],
): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(list ?? {})) {
    const p = path.key(name);
    errs.push(...validateResourceName(name, p));
    const q = quantityAt(value, p);
    if (q instanceof FieldError) {
      errs.push(q);
      continue;
    }
    if (q.mantissa < 0n) {
      errs.push(fieldErrors.invalid(p, canonicalQuantityString(q), 'must be greater than or equal to 0'));
    }
    out.set(name, q);
  }
  return out;
}

export function validateResourceRequirements(
  resources: JsonObject | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = quantities(obj(resources, 'limits'), limPath, errs);
  const requests = quantities(obj(resources, 'requests'), reqPath, errs);
  for (const [name, req] of requests) {
    const lim = limits.get(name);
    const shown = canonicalQuantityString(req);
    if (lim !== undefined) {
      const cmp = compareQuantity(req, lim);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(fieldErrors.invalid(reqPath, shown, `must be equal to ${name} limit`));
      } else if (cmp > 0) {
        errs.push(fieldErrors.invalid(reqPath, shown, `must be less than or equal to ${name} limit`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldErrors.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}
