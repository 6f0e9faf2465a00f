/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) with the semantics of
 * k8s.io/apimachinery/pkg/util/strategicpatch v0.27 (StrategicMergeMapPatch): lists whose field
 * has patchStrategy "merge" merge by patchMergeKey (scalars as sets), other lists replace, maps
 * merge, null deletes; directives `$patch`, `$retainKeys`, `$setElementOrder/<f>`,
 * `$deleteFromPrimitiveList/<f>`. Fields without schema merge like a JSON merge patch.
 * Inputs are never mutated; untouched subtrees are shared with the inputs.
 */
import type { SchemaRegistry } from '../../apis/schema/types.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { PatchError } from './errors.js';
import { pruneNulls } from './merge-patch.js';
import { badPatch, errBadArgType, errBadPatchType, errOther, SLICE_TYPE } from './strategic-errors.js';
import { normalizeElementOrder, partitionByPresence, sliceElementKind } from './strategic-order.js';
import type { PatchMeta } from './strategic-schema.js';
import { PatchSchema } from './strategic-schema.js';
import { goFormat } from './go-format.js';
import { mergeMapList } from './strategic-map-list.js';
import { applySetElementOrder } from './strategic-set-order.js';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

/** The list field behind `$deleteFromPrimitiveList/<f>`. */
function deleteListTarget(key: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== DELETE_FROM_PRIMITIVE_LIST) throw badPatch.primitiveList();
  return key.slice(slash + 1);
}

/** The non-retainKeys strategy of a field ("merge", "replace" or ""). */
export function fieldStrategy(meta: PatchMeta): string {
  const s = meta.strategies;
  if (s.length === 0) return '';
  if (s.length === 1) return s[0] === 'retainKeys' ? '' : s[0]!;
  if (s.length === 2) {
    if (s[0] === 'retainKeys') return s[1]!;
    if (s[1] === 'retainKeys') return s[0]!;
  }
  throw errOther(`unexpected patch strategy: ${goFormat([...s])}`);
}

function applyRetainKeys(out: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badPatch.retainKeys();
  const keep = new Set(list.filter((v): v is string => typeof v === 'string'));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw badPatch.retainKeys();
  }
  for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
}

/** Merges list `patch` into `original` for a field with strategy "merge". */
export function mergeSlice(options: {
  original: readonly JsonValue[];
  patch: readonly JsonValue[];
  schema: PatchSchema;
  mergeKey: string;
  isDeleteList: boolean;
  /** Receives the live list as Go's aliased slice shows it after merging maps (see $setElementOrder). */
  onGoView?: (view: JsonValue[]) => void;
}): JsonValue[] {
  const { schema, mergeKey } = options;
  let original = options.original;
  let patch = options.patch;
  if (original.length === 0 && patch.length === 0) return [...original];
  const kind = sliceElementKind(original, patch);

  let merged: JsonValue[];
  if (kind !== 'map') {
    if (options.isDeleteList) return original.filter((v) => !patch.includes(v));
    merged = [];
    for (const v of [...original, ...patch]) if (!merged.includes(v)) merged.push(v);
  } else {
    if (mergeKey === '') throw errOther(`cannot merge lists without merge key for ${schema.name()}`);
    const r = mergeMapList({
      original,
      patch: patch as JsonObject[],
      mergeKey,
      mergeItem: (o, p) => mergeMap(o, p, schema),
    });
    options.onGoView?.(r.goView);
    merged = r.merged;
    patch = r.patch;
    original = r.serverOrder;
  }
  const { inList, rest } = partitionByPresence(merged, patch, mergeKey);
  return normalizeElementOrder({
    patchItems: inList,
    serverOnly: rest,
    patchOrder: patch,
    serverOrder: original,
    mergeKey,
    kind,
  });
}

/** A list field's value after applying `patch` with the field's strategy. */
export function mergeListField(options: {
  original: JsonValue;
  patch: JsonValue;
  schema: PatchSchema;
  meta: PatchMeta;
  isDeleteList: boolean;
  onGoView?: (view: JsonValue[]) => void;
}): JsonValue[] {
  const { original, patch } = options;
  if (!Array.isArray(original)) throw errBadArgType(SLICE_TYPE, original);
  if (!Array.isArray(patch)) throw errBadArgType(SLICE_TYPE, patch);
  if (fieldStrategy(options.meta) !== 'merge') return patch;
  return mergeSlice({
    original,
    patch,
    schema: options.schema,
    mergeKey: options.meta.mergeKey,
    isDeleteList: options.isDeleteList,
    ...(options.onGoView !== undefined ? { onGoView: options.onGoView } : {}),
  });
}

/** Go reflect type identity of two decoded JSON values. */
function sameGoType(a: JsonValue, b: JsonValue): boolean {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  if (typeof a === 'number' && typeof b === 'number') return Number.isInteger(a) === Number.isInteger(b);
  return typeof a === typeof b;
}

/** Merges map `patchIn` into `original` (undefined = empty). */
export function mergeMap(
  original: JsonObject | undefined,
  patchIn: JsonObject,
  schema: PatchSchema,
): JsonObject {
  if (Object.hasOwn(patchIn, DIRECTIVE)) {
    const directive = patchIn[DIRECTIVE]!;
    if (directive === 'replace') {
      const out = { ...patchIn };
      delete out[DIRECTIVE];
      return out;
    }
    if (directive === 'delete') return {};
    throw errBadPatchType(directive, patchIn);
  }
  const out: JsonObject = { ...original };
  const patch: JsonObject = { ...patchIn };
  applyRetainKeys(out, patch);
  applySetElementOrder(out, patch, schema, mergeListField);

  for (const [key, patchV] of Object.entries(patch)) {
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      isDeleteList = true;
      const target = deleteListTarget(key);
      if (target !== '') k = target;
    }
    if (patchV === null) {
      delete out[k];
      continue;
    }
    if (!Object.hasOwn(out, k)) {
      if (!isDeleteList) out[k] = pruneNulls(patchV);
      continue;
    }
    const origV = out[k]!;
    if (!sameGoType(origV, patchV)) {
      if (!isDeleteList) out[k] = pruneNulls(patchV);
      continue;
    }
    if (isJsonObject(origV) && isJsonObject(patchV)) {
      const { schema: sub, meta } = schema.forStruct(k);
      out[k] = fieldStrategy(meta) === 'replace' ? patchV : mergeMap(origV, patchV, sub);
    } else if (Array.isArray(origV)) {
      const { schema: sub, meta } = schema.forSlice(k);
      out[k] = mergeListField({ original: origV, patch: patchV, schema: sub, meta, isDeleteList });
    } else {
      out[k] = patchV;
    }
  }
  return out;
}

/**
 * The body of a strategic merge patch request decoded as upstream does (into a map): an object,
 * or null (an empty patch); anything else is a bad-request PatchError.
 */
export function decodeStrategicMergePatch(body: unknown): JsonObject {
  if (body === null) return {};
  if (isJsonObject(body)) return body;
  const kind = Array.isArray(body) ? 'array' : typeof body === 'boolean' ? 'bool' : typeof body;
  throw new PatchError(
    'bad-request',
    `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
  );
}

/**
 * Applies a strategic merge patch to `original`, an object of the kind named by `definition`
 * (e.g. `io.k8s.api.apps.v1.Deployment`). Throws PatchError (see errors.ts for the Status each
 * kind maps to).
 */
export function applyStrategicMergePatch(options: {
  original: JsonObject;
  patch: JsonObject;
  registry: SchemaRegistry;
  definition: string;
}): JsonObject {
  const def = options.registry.get(options.definition);
  if (def === undefined) throw new Error(`strategic merge patch: unknown definition ${options.definition}`);
  return mergeMap(options.original, options.patch, new PatchSchema(options.registry, def.schema));
}
