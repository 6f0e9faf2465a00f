/**
 * Resource lists (name → exact quantity) as quota and LimitRanger read and combine them
 * (upstream pkg/quota/v1 resources.go, resource.Quantity.Add): read from JSON with names sorted
 * (Go's map order), added, subtracted, masked, compared and printed as upstream's messages print
 * them (`pods=1,requests.cpu=500m`). A sum drops the input text, so it prints canonically.
 */
import { canonicalForm, compareQuantity, parseQuantity } from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import type { JsonValue } from '../../../../util/json.js';
import { isJsonObject } from '../../../../util/json.js';

export type ResourceList = Map<string, Quantity>;

function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  const e = Math.min(a.exponent, b.exponent);
  return [a.mantissa * 10n ** BigInt(a.exponent - e), b.mantissa * 10n ** BigInt(b.exponent - e), e];
}

/** a + b exactly; the result keeps a's format unless a is zero. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const [am, bm, e] = align(a, b);
  return { mantissa: am + bm, exponent: e, format: a.mantissa === 0n ? b.format : a.format };
}

export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  const [am, bm, e] = align(a, b);
  return { mantissa: am - bm, exponent: e, format: a.format };
}

export function count(n: number): Quantity {
  return { mantissa: BigInt(n), exponent: 0, format: 'DecimalSI' };
}

/** A JSON quantity, or undefined when absent or malformed. */
export function quantityOf(v: JsonValue | undefined): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return parseQuantity(String(v).trim());
  } catch {
    return undefined;
  }
}

/** A v1 ResourceList (name → quantity JSON) as a list; malformed entries are left out. */
export function resourceListOf(v: JsonValue | undefined): ResourceList {
  const out: ResourceList = new Map();
  if (!isJsonObject(v)) return out;
  for (const k of Object.keys(v).sort()) {
    const parsed = quantityOf(v[k]);
    if (parsed !== undefined) out.set(k, parsed);
  }
  return out;
}

/** Adds every quantity of `more` into `list`, in place. */
export function addInto(list: ResourceList, more: ResourceList): void {
  for (const [k, q] of more) {
    const cur = list.get(k);
    list.set(k, cur === undefined ? q : addQuantities(cur, q));
  }
}

/** Raises each resource of `list` to `other`'s when greater (ties keep list's), in place. */
export function maxInto(list: ResourceList, other: ResourceList): void {
  for (const [k, q] of other) {
    const cur = list.get(k);
    if (cur === undefined || compareQuantity(q, cur) > 0) list.set(k, q);
  }
}

export function toJson(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = canonicalForm(list.get(k)!);
  return out;
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) {
    const cur = out.get(k);
    out.set(k, cur === undefined ? q : addQuantities(cur, q));
  }
  return out;
}

/** a - b for every name in a or b (names only in b go negative). */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) {
    const cur = out.get(k) ?? count(0);
    out.set(k, subtractQuantities(cur, q));
  }
  return out;
}

/** a - b, never below zero, for the names of a (upstream SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, q] of a) {
    const other = b.get(k);
    const d = other === undefined ? q : subtractQuantities(q, other);
    out.set(k, d.mantissa < 0n ? count(0) : d);
  }
  return out;
}

export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const q = list.get(n);
    if (q !== undefined) out.set(n, q);
  }
  return out;
}

export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, q]) => q.mantissa !== 0n));
}

export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, q]) => q.mantissa < 0n).map(([k]) => k);
}

/** Whether every name of a is at most b's (names b lacks count as fine); the exceeded names. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { ok: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, q] of a) {
    const limit = b.get(k);
    if (limit !== undefined && compareQuantity(q, limit) > 0) exceeded.push(k);
  }
  return { ok: exceeded.length === 0, exceeded };
}

export function equalLists(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, q] of a) {
    const o = b.get(k);
    if (o === undefined || compareQuantity(q, o) !== 0) return false;
  }
  return true;
}

/** upstream prettyPrint: `name=quantity` sorted by name, comma separated. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${canonicalForm(list.get(k)!)}`)
    .join(',');
}
