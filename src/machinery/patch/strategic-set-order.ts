/**
 * `$setElementOrder/<field>`: merges the field's list (if patched) and then orders it by the
 * directive, server-only items interleaved by their live order (upstream's mergePatchIntoOriginal).
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { goFormat } from './go-format.js';
import {
  errBadArgType,
  errNoMergeKey,
  errOther,
  MAP_TYPE,
  SLICE_TYPE,
  badPatch,
} from './strategic-errors.js';
import {
  normalizeElementOrder,
  partitionByPresence,
  sliceElementKind,
  splitDeleteItems,
} from './strategic-order.js';
import type { PatchMeta, PatchSchema } from './strategic-schema.js';

const PREFIX = '$setElementOrder';

/** Merges a list field with its strategy (injected to keep the modules acyclic). */
export type MergeListField = (options: {
  original: JsonValue;
  patch: JsonValue;
  schema: PatchSchema;
  meta: PatchMeta;
  isDeleteList: boolean;
  onGoView?: (view: JsonValue[]) => void;
}) => JsonValue[];

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isJsonObject(left)) throw errBadArgType(MAP_TYPE, left);
  if (!isJsonObject(right)) throw errBadArgType(MAP_TYPE, right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

/** The patch list's items (deletions aside) must appear in the directive list, in its order. */
function validateAgainstOrder(
  patchList: readonly JsonValue[],
  order: readonly JsonValue[],
  mergeKey: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey !== '' ? splitDeleteItems(patchList).keep : patchList;
  let pi = 0;
  let oi = 0;
  while (pi < items.length && oi < order.length) {
    const item = items[pi]!;
    if (isJsonObject(item) && Object.hasOwn(item, '$patch')) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[oi]!, mergeKey)) pi++;
    oi++;
  }
  if (pi < items.length && oi >= order.length) {
    throw errOther(
      `The order in patch list:\n${goFormat([...patchList])}\n doesn't match ${PREFIX} list:\n${goFormat([...order])}\n`,
    );
  }
}

/** Processes every `$setElementOrder/<f>` of `patch` into `out`, consuming it and `<f>` from `patch`. */
export function applySetElementOrder(
  out: JsonObject,
  patch: JsonObject,
  schema: PatchSchema,
  mergeListField: MergeListField,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(PREFIX)) continue;
    const order = patch[key]!;
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType(SLICE_TYPE, order);
    const slash = key.indexOf('/');
    if (slash < 0 || key.slice(0, slash) !== PREFIX) throw badPatch.setElementOrder();
    const field = key.slice(slash + 1);

    const foundOriginal = Object.hasOwn(out, field);
    const foundPatch = Object.hasOwn(patch, field);
    const originalV = foundOriginal ? out[field]! : null;
    const patchV = foundPatch ? patch[field]! : null;
    if (foundOriginal && !Array.isArray(originalV)) throw errBadArgType(SLICE_TYPE, originalV);
    if (foundPatch && !Array.isArray(patchV)) throw errBadArgType(SLICE_TYPE, patchV);
    const originalList = Array.isArray(originalV) ? originalV : [];
    const patchList = Array.isArray(patchV) ? patchV : [];

    const { schema: sub, meta } = schema.forSlice(field);
    validateAgainstOrder(patchList, order, meta.mergeKey);

    let merged: JsonValue[];
    // Upstream reads the live list through a slice that merging may have rewritten in place.
    let liveOrder = originalList;
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = patchList;
    else if (foundOriginal && foundPatch) {
      merged = mergeListField({
        original: originalList,
        patch: patchList,
        schema: sub,
        meta,
        isDeleteList: false,
        onGoView: (view) => (liveOrder = view),
      });
    } else continue;

    const { inList, rest } = partitionByPresence(merged, order, meta.mergeKey);
    const kind = sliceElementKind(liveOrder, patchList);
    out[field] = normalizeElementOrder({
      patchItems: inList,
      serverOnly: rest,
      patchOrder: order,
      serverOrder: liveOrder,
      mergeKey: meta.mergeKey,
      kind,
    });
    delete patch[field];
  }
}
