/**
 * Lookup by key in an `x-kubernetes-list-type: map` list, as apiserver v0.27.16
 * pkg/cel/common/maplist.go MakeMapList: transition rules on the items of a map-list see as
 * `oldSelf` the old item with the same keys. Items are keyed lazily, the first item with a key
 * wins, and only scalar key values (bool, number, string) make a key.
 */
import type { JsonSchema } from '../schema/structural.js';
import { schemaListMapKeys, schemaListType, schemaType } from '../schema/structural.js';

export interface MapList {
  /** The old item with the keys of `item`, if any. */
  get(item: unknown): unknown;
}

const EMPTY: MapList = { get: () => undefined };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The composite key of an item: each key's scalar value with its type, NUL-delimited. */
function compositeKey(item: Record<string, unknown>, keys: readonly string[]): string | undefined {
  let out = '';
  for (const key of keys) {
    if (!Object.hasOwn(item, key)) return undefined;
    const v = item[key];
    switch (typeof v) {
      case 'boolean':
        out += `\x00b${String(v)}`;
        break;
      case 'number':
      case 'bigint':
        out += `\x00n${String(v)}`;
        break;
      case 'string':
        out += `\x00s${JSON.stringify(v)}`;
        break;
      default:
        return undefined; // values must be scalars
    }
  }
  return out;
}

export function makeMapList(schema: JsonSchema, items: readonly unknown[] | undefined): MapList {
  const keys = schemaListMapKeys(schema);
  if (
    schemaType(schema) !== 'array' ||
    schemaListType(schema) !== 'map' ||
    keys.length === 0 ||
    items === undefined ||
    items.length === 0
  ) {
    return EMPTY;
  }
  const keyed = new Map<string, unknown>();
  let next = 0;
  return {
    get(item: unknown): unknown {
      if (!isRecord(item)) return undefined;
      const key = compositeKey(item, keys);
      if (key === undefined) return undefined;
      if (keyed.has(key)) return keyed.get(key);
      while (next < items.length) {
        const candidate = items[next++];
        if (!isRecord(candidate)) continue;
        const k = compositeKey(candidate, keys);
        if (k === undefined) continue;
        if (!keyed.has(k)) keyed.set(k, candidate);
        if (k === key) return candidate;
      }
      return undefined;
    },
  };
}
