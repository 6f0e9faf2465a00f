/**
 * RFC 7386 JSON merge patch (`application/merge-patch+json`) as evanphx/json-patch v4's MergePatch
 * applies it in kube-apiserver v1.27: null deletes, objects merge recursively, anything else
 * replaces; nulls inside newly added values are dropped (also inside arrays of objects).
 * Inputs are never mutated; untouched subtrees are shared.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { PatchError } from './errors.js';

/** The message of jsonpatch.ErrBadJSONPatch, sent as 400 BadRequest. */
const BAD_PATCH = 'Invalid JSON Patch';

/** Drops null object members at any depth; returns the same value when nothing changes. */
export function pruneNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) {
    let out: JsonValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i]!;
      const p = x === null ? x : pruneNulls(x);
      if (p !== x) {
        out ??= v.slice();
        out[i] = p;
      }
    }
    return out ?? v;
  }
  if (!isJsonObject(v)) return v;
  let out: JsonObject | undefined;
  for (const k of Object.keys(v)) {
    const x = v[k]!;
    if (x === null) {
      out ??= { ...v };
      delete out[k];
      continue;
    }
    const p = pruneNulls(x);
    if (p !== x) {
      out ??= { ...v };
      out[k] = p;
    }
  }
  return out ?? v;
}

function mergeValue(cur: JsonValue, patch: JsonValue): JsonValue {
  if (!isJsonObject(cur)) return pruneNulls(patch);
  if (!isJsonObject(patch)) return patch;
  return mergeObjects(cur, patch);
}

function mergeObjects(doc: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...doc };
  for (const k of Object.keys(patch)) {
    const v = patch[k]!;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.hasOwn(out, k) ? out[k]! : null;
    out[k] = cur === null ? pruneNulls(v) : mergeValue(cur, v);
  }
  return out;
}

/**
 * Applies a merge patch (the parsed request body) to `doc`. A null or scalar patch is a
 * bad-request PatchError (`Invalid JSON Patch`); an array patch replaces the whole document.
 */
export function applyMergePatch(doc: JsonValue, patch: unknown): JsonValue {
  const p = patch as JsonValue;
  if (p === null || (typeof p !== 'object' && !Array.isArray(p)))
    throw new PatchError('bad-request', BAD_PATCH);
  if (doc === null) throw new PatchError('unknown', 'Invalid JSON Document');
  if (Array.isArray(p)) return pruneNulls(p);
  if (!isJsonObject(doc)) return pruneNulls(p);
  return mergeObjects(doc, p);
}
