/**
 * A ResourceList (resource name → quantity) read from stored JSON, and upstream's
 * addResourceList / maxResourceList over it. Quantity.Add keeps the first operand's format
 * (the second's when the first is zero) and drops the kept input text, so a sum prints in its
 * canonical form while a single copied value prints as it was written.
 */
import { compareQuantity, parseQuantityJSON, QuantityParseError } from '../../machinery/quantity/quantity.js';
import type { Quantity } from '../../machinery/quantity/quantity.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';

export type ResourceList = Map<string, Quantity>;

/**
 * The quantities of a JSON map, keys sorted (the order Go marshals maps in, and a fixed order
 * for upstream's map iterations). A value that is not a quantity is left out: stored objects
 * were validated, and a request body is validated before the validating phase sees it.
 */
export function resourceListOf(v: JsonValue | undefined): ResourceList {
  const out: ResourceList = new Map();
  if (!isJsonObject(v)) return out;
  for (const key of Object.keys(v).sort()) {
    try {
      const q = parseQuantityJSON(v[key]);
      if (q !== undefined) out.set(key, q);
    } catch (err) {
      if (!(err instanceof QuantityParseError) && !(err instanceof TypeError)) throw err;
    }
  }
  return out;
}

/** upstream Quantity.Add: exact, in a's format (b's when a is zero), without kept text. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const exponent = Math.min(a.exponent, b.exponent);
  const mantissa =
    a.mantissa * 10n ** BigInt(a.exponent - exponent) + b.mantissa * 10n ** BigInt(b.exponent - exponent);
  return { mantissa, exponent, format: a.mantissa === 0n ? b.format : a.format };
}

/** Adds every quantity of `add` into `list`. */
export function addResourceList(list: ResourceList, add: ResourceList): void {
  for (const [name, q] of add) {
    const have = list.get(name);
    list.set(name, have === undefined ? q : addQuantity(have, q));
  }
}

/** Sets each resource of `other` in `list` to the greater of the two (ties keep list's). */
export function maxResourceList(list: ResourceList, other: ResourceList): void {
  for (const [name, q] of other) {
    const have = list.get(name);
    if (have === undefined || compareQuantity(q, have) > 0) list.set(name, q);
  }
}
