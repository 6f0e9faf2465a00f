/**
 * upstream's minConstraint, maxConstraint, maxRequestConstraint and
 * limitRequestRatioConstraint: one enforced quantity of a LimitRange item against observed
 * requests and limits, as the refusal's text or undefined. Values compare as upstream's
 * requestLimitEnforcedValues does: in milli-units when all three fit (Value() at most
 * MaxMilliValue), else in whole units, each rounded up.
 */
import {
  canonicalQuantityString,
  quantityMilliValue,
  quantityValue,
} from '../../machinery/quantity/quantity.js';
import type { Quantity } from '../../machinery/quantity/quantity.js';
import { goFixed6 } from './go-fixed.js';
import type { ResourceList } from '../../apis/core/v1/quota/resource-list.js';

/** resource.MaxMilliValue: math.MaxInt64 / 1000. */
const maxMilliValue = (2n ** 63n - 1n) / 1000n;

function valueOf(q: Quantity | undefined): bigint {
  return q === undefined ? 0n : quantityValue(q);
}

function milliOf(q: Quantity | undefined): bigint {
  return q === undefined ? 0n : quantityMilliValue(q);
}

/** [request, limit, enforced] at a common precision (a missing quantity counts as 0). */
function enforcedValues(
  request: Quantity | undefined,
  limit: Quantity | undefined,
  enforced: Quantity,
): [bigint, bigint, bigint] {
  const values: [bigint, bigint, bigint] = [valueOf(request), valueOf(limit), quantityValue(enforced)];
  if (values.every((v) => v <= maxMilliValue)) return [milliOf(request), milliOf(limit), milliOf(enforced)];
  return values;
}

const text = canonicalQuantityString;

export function minConstraint(
  limitType: string,
  resourceName: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(resourceName);
  const lim = limits.get(resourceName);
  const [observedReq, observedLim, enforcedValue] = enforcedValues(req, lim, enforced);
  const head = `minimum ${resourceName} usage per ${limitType} is ${text(enforced)}`;
  if (req === undefined) return `${head}.  No request is specified`;
  if (observedReq < enforcedValue) return `${head}, but request is ${text(req)}`;
  if (lim !== undefined && observedLim < enforcedValue) return `${head}, but limit is ${text(lim)}`;
  return undefined;
}

export function maxConstraint(
  limitType: string,
  resourceName: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(resourceName);
  const lim = limits.get(resourceName);
  const [observedReq, observedLim, enforcedValue] = enforcedValues(req, lim, enforced);
  const head = `maximum ${resourceName} usage per ${limitType} is ${text(enforced)}`;
  if (lim === undefined) return `${head}.  No limit is specified`;
  if (observedLim > enforcedValue) return `${head}, but limit is ${text(lim)}`;
  if (req !== undefined && observedReq > enforcedValue) return `${head}, but request is ${text(req)}`;
  return undefined;
}

/** The max check for types without limits (PersistentVolumeClaim): requests only. */
export function maxRequestConstraint(
  limitType: string,
  resourceName: string,
  enforced: Quantity,
  requests: ResourceList,
): string | undefined {
  const req = requests.get(resourceName);
  const [observedReq, , enforcedValue] = enforcedValues(req, undefined, enforced);
  const head = `maximum ${resourceName} usage per ${limitType} is ${text(enforced)}`;
  if (req === undefined) return `${head}.  No request is specified`;
  if (observedReq > enforcedValue) return `${head}, but request is ${text(req)}`;
  return undefined;
}

export function limitRequestRatioConstraint(
  limitType: string,
  resourceName: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const req = requests.get(resourceName);
  const lim = limits.get(resourceName);
  const [observedReq, observedLim] = enforcedValues(req, lim, enforced);
  const head = `${resourceName} max limit to request ratio per ${limitType} is ${text(enforced)}`;
  if (req === undefined || observedReq === 0n) {
    return `${head}, but no request is specified or request is 0`;
  }
  if (lim === undefined || observedLim === 0n) return `${head}, but no limit is specified or limit is 0`;
  // float64 arithmetic as upstream (Number(bigint) rounds to nearest even, as Go's conversion).
  const observedRatio = Number(observedLim) / Number(observedReq);
  let ratio = observedRatio;
  let maxRatio = Number(quantityValue(enforced));
  if (quantityValue(enforced) <= maxMilliValue) {
    ratio = observedRatio * 1000;
    maxRatio = Number(quantityMilliValue(enforced));
  }
  if (ratio > maxRatio) return `${head}, but provided ratio is ${goFixed6(observedRatio)}`;
  return undefined;
}
