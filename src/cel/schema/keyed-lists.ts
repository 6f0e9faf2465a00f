/**
 * List values of `x-kubernetes-list-type: set` and `map` arrays, with the equality and
 * concatenation apiserver v0.27.16 pkg/cel/common/values.go gives them when they are the left
 * operand: a set equals any list with the same elements in any order and `+` appends only new
 * elements; a map-list equals a list whose elements match by key, and `+` replaces elements with
 * the same key. @bufbuild/cel's lists compare in order and cannot be subclassed, so such lists are
 * registered here and the runtime's `_==_`, `_!=_` and `_+_` consult keyedListEquals/keyedListAdd.
 *
 * Keys follow Go's map keys over the unstructured data: an int64 is not a float64, a value that
 * is not a scalar never matches, and more than three key fields compare by their `%v` text.
 */
import { celList, celMap, isCelList, isCelMap, isCelUint, type CelList, type CelValue } from '@bufbuild/cel';

interface KeyedList {
  readonly kind: 'set' | 'map';
  /** Escaped key property names of a map-list. */
  readonly keyProps: readonly string[];
  /** One key per element (undefined: matches nothing). */
  readonly keys: readonly (string | undefined)[];
}

const keyedLists = new WeakMap<object, KeyedList>();
/** The unstructured JSON behind each object value built from data. */
const rawObjects = new WeakMap<object, Readonly<Record<string, unknown>>>();

/** Registers a CEL map built from a JSON object (map-list keys read the raw fields). */
export function objectFromData(map: Map<string, unknown>, raw: Readonly<Record<string, unknown>>): CelValue {
  const value = celMap(map as Map<string, never>);
  rawObjects.set(value, raw);
  return value;
}

/** Go map-key identity of one scalar, or undefined when Go could not match it. */
function scalarKey(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'n';
  if (typeof v === 'string') return `s:${v}`;
  if (typeof v === 'boolean') return `b:${v}`;
  if (typeof v === 'bigint') return `i:${v}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i:${v}` : `d:${v}`;
  return undefined;
}

/** The key of a CEL value as Go sees its Value(): a double stays a double. */
function celScalarKey(v: unknown): string | undefined {
  if (typeof v === 'number') return `d:${v}`;
  if (isCelUint(v)) return `u:${v.value}`;
  return scalarKey(v);
}

function goFormat(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
    case 'boolean':
      return v.toString();
    default:
      return v === null || v === undefined ? '<nil>' : JSON.stringify(v);
  }
}

function mapListKey(element: unknown, keyProps: readonly string[]): string | undefined {
  const raw = typeof element === 'object' && element !== null ? rawObjects.get(element) : undefined;
  if (raw === undefined) return undefined; // a literal map: cel-go's key is an error, unique
  const values = keyProps.map((k) => raw[k]);
  if (values.length > 3) return `f:[${values.map(goFormat).join(' ')}]`;
  const parts = values.map(scalarKey);
  if (parts.some((p) => p === undefined)) return undefined;
  return parts.join('\u0000');
}

/** A set or map-list value for `elements` (CEL values) built from the JSON array `raw`. */
export function keyedList(
  kind: 'set' | 'map',
  elements: readonly CelValue[],
  raw: readonly unknown[],
  keyProps: readonly string[],
): CelList {
  const list = celList(elements);
  const keys = kind === 'set' ? raw.map(scalarKey) : elements.map((e) => mapListKey(e, keyProps));
  keyedLists.set(list, { kind, keyProps, keys });
  return list;
}

/** The elements of a list operand (a CelList, or a native array as inputs may give it). */
function listValues(v: unknown): CelValue[] | undefined {
  if (isCelList(v)) return [...v];
  return Array.isArray(v) ? [...celList(v as CelValue[])] : undefined;
}

/** `lhs == rhs` when lhs is a set or map-list value; undefined when it is not one. */
export function keyedListEquals(lhs: unknown, rhs: unknown): boolean | undefined {
  const keyed = typeof lhs === 'object' && lhs !== null ? keyedLists.get(lhs) : undefined;
  if (keyed === undefined || !isCelList(lhs)) return undefined;
  const others = listValues(rhs);
  if (others === undefined || others.length !== lhs.size) return false;
  if (keyed.kind === 'set') {
    const set = new Set(keyed.keys.filter((k): k is string => k !== undefined));
    return others.every((o) => {
      const k = celScalarKey(o);
      return k !== undefined && set.has(k);
    });
  }
  const byKey = new Map<string, CelValue>();
  keyed.keys.forEach((k, i) => {
    const e = lhs.get(i);
    if (k !== undefined && e !== undefined) byKey.set(k, e);
  });
  return others.every((o) => {
    const k = mapListKey(o, keyed.keyProps);
    const mine = k === undefined ? undefined : byKey.get(k);
    return mine !== undefined && celEquals(mine, o);
  });
}

/** `lhs + rhs` when lhs is a set or map-list value; undefined when it is not one. */
export function keyedListAdd(lhs: unknown, rhs: unknown): CelList | undefined {
  const keyed = typeof lhs === 'object' && lhs !== null ? keyedLists.get(lhs) : undefined;
  if (keyed === undefined || !isCelList(lhs)) return undefined;
  const others = listValues(rhs) ?? [];
  const elements = [...lhs];
  const keys = [...keyed.keys];
  if (keyed.kind === 'set') {
    const seen = new Set(keys.filter((k): k is string => k !== undefined));
    for (const o of others) {
      const k = celScalarKey(o);
      if (k !== undefined && seen.has(k)) continue;
      if (k !== undefined) seen.add(k);
      elements.push(o);
      keys.push(k);
    }
  } else {
    const position = new Map<string, number>();
    keys.forEach((k, i) => {
      if (k !== undefined) position.set(k, i);
    });
    for (const o of others) {
      const k = mapListKey(o, keyed.keyProps);
      const at = k === undefined ? undefined : position.get(k);
      if (at !== undefined) {
        elements[at] = o;
      } else {
        // As upstream, appended keys are not indexed: later duplicates append too.
        elements.push(o);
        keys.push(k);
      }
    }
  }
  const list = celList(elements);
  keyedLists.set(list, { kind: keyed.kind, keyProps: keyed.keyProps, keys });
  return list;
}

function isMessage(v: unknown): v is { $typeName: string; seconds?: bigint; nanos?: number } {
  return typeof v === 'object' && v !== null && '$typeName' in v;
}

/** CEL equality of two values as cel-go's Equal (numbers across types, keyed lists on the left). */
export function celEquals(a: unknown, b: unknown): boolean {
  const keyed = keyedListEquals(a, b);
  if (keyed !== undefined) return keyed;
  const num = (v: unknown): number | bigint | undefined =>
    typeof v === 'bigint' || typeof v === 'number' ? v : isCelUint(v) ? v.value : undefined;
  const na = num(a);
  const nb = num(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na == nb;
  if (a === null || typeof a !== 'object') return a === b;
  if (a instanceof Uint8Array) {
    return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (isCelList(a)) {
    if (!isCelList(b) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
    return true;
  }
  if (isCelMap(a)) {
    if (!isCelMap(b) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k) || !celEquals(v, b.get(k))) return false;
    }
    return true;
  }
  if (isMessage(a)) {
    return isMessage(b) && a.$typeName === b.$typeName && a.seconds === b.seconds && a.nanos === b.nanos;
  }
  return false;
}
