/**
 * Element order of merged lists in strategic merge patch: items named by the patch (or by
 * `$setElementOrder`) keep the patch's order, server-only items keep the live order, and the two
 * runs are interleaved using the live order, exactly as upstream computes it.
 */
import type { JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import {
  errBadArgType,
  errNoListOfLists,
  errNoMergeKey,
  errOther,
  MAP_TYPE,
  SLICE_TYPE,
} from './strategic-errors.js';
import { goFormat, goTypeName } from './go-format.js';
import { goSliceStable } from './go-sort.js';

/** Whether list items are maps (matched by merge key) or scalars (matched by value). */
export type ElementKind = 'map' | 'scalar';

/** The common Go type of the elements of the slices; errors for mixed types and lists of lists. */
export function sliceElementKind(...slices: readonly (readonly JsonValue[])[]): ElementKind {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goTypeName(v);
      if (prev === undefined) {
        prev = t;
        if (t === SLICE_TYPE) throw errNoListOfLists();
      } else if (prev !== t) {
        throw errOther(`list element types are not identical: ${goFormat(slices as JsonValue[][])}`);
      }
    }
  }
  if (prev === undefined) throw errOther('no elements in any of the given slices');
  return prev === MAP_TYPE ? 'map' : 'scalar';
}

function keyOf(item: JsonValue, mergeKey: string, kind: ElementKind): JsonValue {
  if (kind !== 'map') return item;
  return isJsonObject(item) ? (item[mergeKey] ?? null) : null;
}

/** Position of `item` in `list`, by merge-key value for maps, by value for scalars; -1 if absent. */
export function indexIn(
  list: readonly JsonValue[],
  item: JsonValue,
  mergeKey: string,
  kind: ElementKind,
): number {
  const want = keyOf(item, mergeKey, kind);
  return list.findIndex((v) => keyOf(v, mergeKey, kind) === want);
}

/** The first map in `list` whose merge key equals `value`; errors on a non-map element first. */
export function findByMergeKey(
  list: readonly JsonValue[],
  mergeKey: string,
  value: JsonValue,
  end = list.length,
): number {
  for (let i = 0; i < end; i++) {
    const v = list[i]!;
    if (!isJsonObject(v)) throw errOther(`value for key ${i} is not a map`);
    if (Object.hasOwn(v, mergeKey) && v[mergeKey] === value) return i;
  }
  return -1;
}

export function validateMergeKeyInLists(mergeKey: string, ...lists: readonly (readonly JsonValue[])[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw errBadArgType(MAP_TYPE, item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Splits list items into those without and those with `$patch: delete`. */
export function splitDeleteItems(list: readonly JsonValue[]): { keep: JsonValue[]; del: JsonValue[] } {
  const keep: JsonValue[] = [];
  const del: JsonValue[] = [];
  for (const v of list) {
    if (!isJsonObject(v)) throw errBadArgType(MAP_TYPE, v);
    if (v.$patch === 'delete') del.push(v);
    else keep.push(v);
  }
  return { keep, del };
}

/** Splits `merged` into items present in `by` (scalars by value, maps by merge key) and the rest. */
export function partitionByPresence(
  merged: readonly JsonValue[],
  by: readonly JsonValue[],
  mergeKey: string,
): { inList: JsonValue[]; rest: JsonValue[] } {
  const inList: JsonValue[] = [];
  const rest: JsonValue[] = [];
  for (const v of merged) {
    let found: boolean;
    if (mergeKey === '') {
      found = by.includes(v);
    } else {
      if (!isJsonObject(v)) throw errBadArgType(MAP_TYPE, v);
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      found = findByMergeKey(by, mergeKey, v[mergeKey]!) >= 0;
    }
    (found ? inList : rest).push(v);
  }
  return { inList, rest };
}

function sortByOrder(
  toSort: readonly JsonValue[],
  order: readonly JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
  let items = [...toSort];
  let deletes: JsonValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    const split = splitDeleteItems(items);
    items = split.keep;
    deletes = split.del;
  }
  goSliceStable(items, (a, b) => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return [...items, ...deletes];
}

/** Inserts the server-only run into the patch run, guided by the live order. */
function interleave(
  left: readonly JsonValue[],
  right: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]!);
    else if (j >= right.length) out.push(left[i++]!);
    else {
      const li = indexIn(serverOrder, left[i]!, mergeKey, kind);
      const ri = indexIn(serverOrder, right[j]!, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}

/** Orders patch items by `patchOrder`, server-only items by `serverOrder`, then interleaves them. */
export function normalizeElementOrder(options: {
  patchItems: readonly JsonValue[];
  serverOnly: readonly JsonValue[];
  patchOrder: readonly JsonValue[];
  serverOrder: readonly JsonValue[];
  mergeKey: string;
  kind: ElementKind;
}): JsonValue[] {
  const { mergeKey, kind } = options;
  const patch = sortByOrder(options.patchItems, options.patchOrder, mergeKey, kind);
  const server = sortByOrder(options.serverOnly, options.serverOrder, mergeKey, kind);
  return interleave(server, patch, options.serverOrder, mergeKey, kind);
}
