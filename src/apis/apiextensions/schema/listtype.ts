/**
 * x-kubernetes-list-type validation of custom resources, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/listtype/validation.go: `set` lists may not repeat a value, `map` lists
 * may not repeat a key (the x-kubernetes-list-map-keys values) and hold only objects.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { goBadValue } from './go-value.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import type { Structural } from './structural.js';

function childOf(p: FieldPath | undefined, name: string): FieldPath {
  return p === undefined ? FieldPath.root(name) : p.child(name);
}

function keyOf(p: FieldPath | undefined, key: string): FieldPath {
  return p === undefined ? FieldPath.root('').key(key) : p.key(key);
}

function indexOf(p: FieldPath, i: number): FieldPath {
  return p.index(i);
}

/** Upstream ValidateListSetsAndMaps: the lists below the object's properties. */
export function validateListSetsAndMaps(
  path: FieldPath | undefined,
  s: Structural | undefined,
  obj: JsonObject | undefined,
): FieldError[] {
  if (s === undefined || obj === undefined) return [];
  const errs: FieldError[] = [];
  const ap = s.generic.additionalProperties?.structural;
  if (ap !== undefined) {
    for (const [k, v] of Object.entries(obj)) errs.push(...validateValue(keyOf(path, k), ap, v));
  }
  if (s.properties !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties.get(k);
      if (sub !== undefined) errs.push(...validateValue(childOf(path, k), sub, v));
    }
  }
  return errs;
}

function validateValue(path: FieldPath, s: Structural, v: JsonValue): FieldError[] {
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isJsonObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function validateArray(path: FieldPath, s: Structural, list: JsonValue[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s.extensions.listType;
  if (listType === 'set') {
    for (const i of nonUniqueIndices(list))
      errs.push(fieldErrors.duplicate(indexOf(path, i), goBadValue(list[i]!)));
  } else if (listType === 'map') {
    errs.push(...validateListMap(path, s, list));
  }
  if (s.items !== undefined) {
    list.forEach((x, i) => errs.push(...validateValue(indexOf(path, i), s.items!, x)));
  }
  return errs;
}

/** Scalars compare by type and value, composites by their JSON (upstream validateListSet). */
function identity(v: JsonValue | typeof unspecified): string {
  if (v === unspecified) return 'u:';
  if (v === null) return 'n:';
  if (typeof v === 'object') return `j:${canonicalJSON(v)}`;
  return `${typeof v}:${String(v)}`;
}

function canonicalJSON(v: JsonValue): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJSON(v[k]!)}`)
    .join(',')}}`;
}

const unspecified: unique symbol = Symbol('unspecified');

/** Indices of the second occurrence of each repeated value. */
function nonUniqueIndices(list: readonly (JsonValue | typeof unspecified)[]): number[] {
  if (list.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const id = identity(x);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

function validateListMap(path: FieldPath, s: Structural, list: JsonValue[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    if (x !== null && !isJsonObject(x)) {
      return [
        fieldErrors.invalid(
          indexOf(path, i),
          goBadValue(x),
          'must be an object for an array of list-type map',
        ),
      ];
    }
  }
  if (list.length <= 1) return [];
  const keyFields = s.extensions.listMapKeys ?? [];
  if (keyFields.length === 1) {
    const keyField = keyFields[0]!;
    const keys = list.map((x) =>
      isJsonObject(x) && Object.hasOwn(x, keyField) ? x[keyField]! : unspecified,
    );
    return nonUniqueIndices(keys).map((i) => {
      const k = keys[i]!;
      return fieldErrors.duplicate(indexOf(path, i), goBadValue(k === unspecified ? {} : { [keyField]: k }));
    });
  }
  const keys = list.map((x) => {
    const key: JsonObject = {};
    if (isJsonObject(x)) {
      for (const f of keyFields) if (Object.hasOwn(x, f)) key[f] = x[f]!;
    }
    return key;
  });
  return nonUniqueIndices(keys).map((i) => fieldErrors.duplicate(indexOf(path, i), goBadValue(keys[i]!)));
}
