/**
 * Defaulting of custom resources from their structural schema, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/defaulting: algorithm.go (Default: absent fields, and nulls where the
 * schema is not nullable, get a copy of the default), prunenulls.go
 * (PruneNonNullableNullsWithoutDefaults), surroundingobject.go (a default placed into the
 * smallest object around it, so it can be coerced and pruned as part of a resource) and prune.go
 * (PruneDefaults: defaults pruned as values of the schema would be).
 */
import { cloneJson, isJsonObject, jsonEqual } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { coerce } from './objectmeta.js';
import { prune } from './pruning.js';
import type { Structural } from './structural.js';

function isNonNullableNull(x: JsonValue | undefined, s: Structural | undefined): boolean {
  return x === null && s !== undefined && !s.generic.nullable;
}

/** Upstream Default: applies the schema's defaults to `x` in place. */
export function applyDefaults(x: JsonValue, s: Structural | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], s.items) && s.items?.generic.default !== undefined) {
        x[i] = cloneJson(s.items.generic.default);
      }
      applyDefaults(x[i]!, s.items);
    }
    return;
  }
  if (!isJsonObject(x)) return;
  for (const [k, prop] of s.properties ?? []) {
    const d = prop.generic.default;
    if (d === undefined) continue;
    if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) x[k] = cloneJson(d);
  }
  const ap = s.generic.additionalProperties;
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop !== undefined) applyDefaults(x[k]!, prop);
    else if (ap !== undefined) {
      const st = ap.structural;
      if (isNonNullableNull(x[k], st) && st?.generic.default !== undefined)
        x[k] = cloneJson(st.generic.default);
      applyDefaults(x[k]!, st);
    }
  }
}

function schemaForField(field: string, s: Structural | undefined): Structural | undefined {
  if (s === undefined) return undefined;
  return s.properties?.get(field) ?? s.generic.additionalProperties?.structural;
}

/** Upstream PruneNonNullableNullsWithoutDefaults: drops nulls the schema neither allows nor defaults. */
export function pruneNonNullableNullsWithoutDefaults(x: JsonValue, s: Structural | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, s?.items);
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    const schema = schemaForField(k, s);
    const v = x[k]!;
    if (
      v === null &&
      schema !== undefined &&
      !schema.generic.nullable &&
      schema.generic.default === undefined
    ) {
      delete x[k];
    } else {
      pruneNonNullableNullsWithoutDefaults(v, schema);
    }
  }
}

// ---- surrounding objects (surroundingobject.go) ----

/** Reads the focus back out of the surrounding object: [value, found] or an error text. */
export type Accessor = (root: JsonObject) => { value?: JsonValue; found: boolean; error?: string };

/** Wraps a value into the object around it (upstream SurroundingObjectFunc). */
export interface SurroundingObject {
  wrap(focus: JsonValue): { obj?: JsonObject; accessor?: Accessor; error?: string };
}

/** Upstream NewRootObjectFunc: the value itself must be the object. */
export function rootObject(): SurroundingObject {
  return {
    wrap(focus) {
      if (!isJsonObject(focus)) return { error: 'object root default value must be of object type' };
      return { obj: focus, accessor: (root) => ({ value: root, found: true }) };
    },
  };
}

/** Upstream WithTypeMeta: the surrounding object gets apiVersion and kind when it has none. */
export function withTypeMeta(f: SurroundingObject, apiVersion: string, kind: string): SurroundingObject {
  return {
    wrap(focus) {
      const r = f.wrap(focus);
      if (r.error !== undefined) return r;
      const obj = r.obj ?? {};
      if (!Object.hasOwn(obj, 'kind')) obj['kind'] = kind;
      if (!Object.hasOwn(obj, 'apiVersion')) obj['apiVersion'] = apiVersion;
      return { ...r, obj };
    },
  };
}

/** Upstream Child: the focus is the value of field `k` of an object. */
export function childObject(f: SurroundingObject, k: string): SurroundingObject {
  return {
    wrap(focus) {
      const r = f.wrap({ [k]: focus });
      if (r.error !== undefined || r.accessor === undefined) return r;
      const acc = r.accessor;
      return {
        ...r,
        accessor: (root) => {
          const got = acc(root);
          if (got.error !== undefined) return { found: false, error: `.${k}${got.error}` };
          if (!got.found) return { found: false };
          if (!isJsonObject(got.value)) return { found: false, error: `.${k} must be of object type` };
          if (!Object.hasOwn(got.value, k)) return { found: false };
          return { value: got.value[k]!, found: true };
        },
      };
    },
  };
}

/** Upstream Index: the focus is the single item of an array. */
export function indexObject(f: SurroundingObject): SurroundingObject {
  return {
    wrap(focus) {
      const r = f.wrap([focus]);
      if (r.error !== undefined || r.accessor === undefined) return r;
      const acc = r.accessor;
      return {
        ...r,
        accessor: (root) => {
          const got = acc(root);
          if (got.error !== undefined) return { found: false, error: `[]${got.error}` };
          if (!got.found) return { found: false };
          if (!Array.isArray(got.value)) return { found: false, error: '[] must be of array type' };
          if (got.value.length === 0) return { found: false };
          return { value: got.value[0]!, found: true };
        },
      };
    },
  };
}

/** A typed failure of PruneDefaults (upstream returns a plain error). */
export class PruneDefaultsError extends Error {
  override readonly name = 'PruneDefaultsError';
}

/**
 * Upstream PruneDefaults: every default is placed into its surrounding object, coerced (metadata)
 * and pruned against the root schema, and read back; the schema is changed in place. Returns
 * whether anything changed.
 */
export function pruneDefaults(root: Structural): boolean {
  return pruneDefaultsOf(root, root, rootObject());
}

function pruneDefaultsOf(root: Structural, s: Structural | undefined, f: SurroundingObject): boolean {
  if (s === undefined) return false;
  let changed = false;
  const d = s.generic.default;
  if (d !== undefined) {
    const orig = cloneJson(d);
    const w = f.wrap(cloneJson(d));
    if (w.error !== undefined || w.obj === undefined || w.accessor === undefined) {
      throw new PruneDefaultsError(`failed to prune default value: ${w.error ?? ''}`);
    }
    const c = coerce(undefined, w.obj, root, true, { dropInvalidFields: true });
    if (c.error !== undefined)
      throw new PruneDefaultsError(`failed to prune default value: ${c.error.toString()}`);
    prune(w.obj, root, true);
    const got = w.accessor(w.obj);
    if (got.error !== undefined) throw new PruneDefaultsError(`failed to prune default value: ${got.error}`);
    if (got.value === undefined || got.value === null) delete s.generic.default;
    else s.generic.default = got.value;
    changed ||= !jsonEqual(orig, s.generic.default);
  }
  const ap = s.generic.additionalProperties?.structural;
  if (ap !== undefined) changed = pruneDefaultsOf(root, ap, childObject(f, '*')) || changed;
  if (s.items !== undefined) changed = pruneDefaultsOf(root, s.items, indexObject(f)) || changed;
  for (const [k, sub] of s.properties ?? [])
    changed = pruneDefaultsOf(root, sub, childObject(f, k)) || changed;
  return changed;
}
