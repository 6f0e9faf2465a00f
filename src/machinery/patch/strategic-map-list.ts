/**
 * Merging a list of maps by merge key (upstream's mergeSliceWithSpecialElements and
 * mergeSliceWithoutSpecialElements), including the Go slice aliasing that upstream's later
 * `$setElementOrder` ordering observes: deletions shift the live list's backing array in place and
 * appends reuse the freed capacity, so the "live order" seen afterwards is that array.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { errBadPatchType, errNoMergeKey, errOther } from './strategic-errors.js';
import { findByMergeKey } from './strategic-order.js';

export interface MapListMerge {
  /** The merged list, before ordering. */
  readonly merged: JsonValue[];
  /** The patch items without `$patch` items (empty after `$patch: replace`). */
  readonly patch: JsonValue[];
  /** The live list after deletions (or the replacement list): the order server-only items keep. */
  readonly serverOrder: JsonValue[];
  /** What the caller's view of the live list holds afterwards (Go shares the backing array). */
  readonly goView: JsonValue[];
}

export function mergeMapList(options: {
  original: readonly JsonValue[];
  patch: readonly JsonObject[];
  mergeKey: string;
  mergeItem: (original: JsonObject, patch: JsonObject) => JsonObject;
}): MapListMerge {
  const { mergeKey } = options;
  // Go's backing array of the live list; its capacity equals its length (ToUnstructured).
  const backing = [...options.original];
  let len = backing.length;
  const plain: JsonObject[] = [];
  let replace = false;
  for (const v of options.patch) {
    if (!Object.hasOwn(v, '$patch')) {
      plain.push(v);
      continue;
    }
    const directive = v.$patch!;
    if (directive === 'delete') {
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      const value = v[mergeKey]!;
      for (
        let i = findByMergeKey(backing, mergeKey, value, len);
        i >= 0;
        i = findByMergeKey(backing, mergeKey, value, len)
      ) {
        backing.copyWithin(i, i + 1, len);
        len--;
      }
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw errOther('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, v);
    }
  }

  const patch: JsonObject[] = replace ? [] : plain;
  let aliased = !replace;
  let work: JsonValue[] = replace ? [...plain] : backing;
  const serverOrder = replace ? [...plain] : backing.slice(0, len);
  for (const v of patch) {
    if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    const end = aliased ? len : work.length;
    const i = findByMergeKey(work, mergeKey, v[mergeKey]!, end);
    if (i >= 0) {
      work[i] = options.mergeItem(work[i] as JsonObject, v);
    } else if (aliased && len < backing.length) {
      backing[len++] = v;
    } else {
      if (aliased) {
        work = backing.slice(0, len);
        aliased = false;
      }
      work.push(v);
    }
  }
  return { merged: aliased ? backing.slice(0, len) : work, patch, serverOrder, goView: backing };
}
