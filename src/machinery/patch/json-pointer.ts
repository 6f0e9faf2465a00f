/**
 * JSON-pointer containers for json-patch.ts, with evanphx/json-patch v4's rules: JSON null counts
 * as absent, array indices follow strconv.Atoi and may be negative, and writes copy each container
 * on the written path once (copy-on-write) so the input document is never mutated.
 */
import type { JsonObject, JsonValue } from '../../util/json.js';
import { PatchError } from './errors.js';

export type Container = JsonObject | JsonValue[];

export function fail(message: string): PatchError {
  return new PatchError('unprocessable', message);
}

export const MISSING = ': missing value';
const INVALID_INDEX = ': invalid index referenced';

/** strconv.Atoi: optional sign and decimal digits only. */
function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw fail(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  return Number(key);
}

function decodeKey(k: string): string {
  return k.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The index a get/set/remove of `key` addresses in `arr`, or a thrown invalid-index error. */
export function existingIndex(arr: readonly JsonValue[], key: string): number {
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -arr.length) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
    idx += arr.length;
  }
  if (idx >= arr.length) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
  return idx;
}

/** A child of a container; JSON null counts as absent, as in upstream's lazy nodes. */
export function getChild(con: Container, key: string): JsonValue | undefined {
  if (Array.isArray(con)) {
    const v = con[existingIndex(con, key)];
    return v === null ? undefined : v;
  }
  const v = Object.hasOwn(con, key) ? con[key] : undefined;
  return v === null ? undefined : v;
}

export class PatchTarget {
  root: Container;
  readonly #owned = new WeakSet<object>();

  constructor(root: Container) {
    this.root = root;
  }

  #own(v: Container): Container {
    if (this.#owned.has(v)) return v;
    const copy: Container = Array.isArray(v) ? [...v] : { ...v };
    this.#owned.add(copy);
    return copy;
  }

  /** Upstream's findObject: the parent container of `path` and the decoded last token. */
  find(path: string, forWrite: boolean): { con: Container; key: string } | undefined {
    const split = path.split('/');
    if (split.length < 2) return undefined;
    if (forWrite) this.root = this.#own(this.root);
    let con = this.root;
    for (const part of split.slice(1, -1)) {
      const key = decodeKey(part);
      let next: JsonValue | undefined;
      try {
        next = getChild(con, key);
      } catch {
        return undefined;
      }
      if (next === undefined || next === null || typeof next !== 'object') return undefined;
      if (forWrite) {
        next = this.#own(next);
        if (Array.isArray(con)) con[existingIndex(con, key)] = next;
        else con[key] = next;
      }
      con = next;
    }
    return { con, key: decodeKey(split[split.length - 1]!) };
  }
}

export function addTo(con: Container, key: string, val: JsonValue): void {
  if (!Array.isArray(con)) {
    con[key] = val;
    return;
  }
  if (key === '-') {
    con.push(val);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (e) {
    throw fail(`value was not a proper array index: '${key}': ${(e as Error).message}`);
  }
  const size = con.length + 1;
  if (idx >= size) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
  if (idx < 0) {
    if (idx < -size) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
    idx += size;
  }
  con.splice(idx, 0, val);
}

export function removeFrom(con: Container, key: string): void {
  if (Array.isArray(con)) {
    let idx = atoi(key);
    if (idx >= con.length) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
    if (idx < 0) {
      if (idx < -con.length) throw fail(`Unable to access invalid index: ${idx}${INVALID_INDEX}`);
      idx += con.length;
    }
    con.splice(idx, 1);
    return;
  }
  if (!Object.hasOwn(con, key)) throw fail(`Unable to remove nonexistent key: ${key}${MISSING}`);
  delete con[key];
}
