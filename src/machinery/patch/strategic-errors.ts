/** The strategic-merge-patch errors of k8s.io/apimachinery/pkg/util/mergepatch, as PatchErrors. */
import type { JsonValue } from '../../util/json.js';
import { PatchError } from './errors.js';
import { goFormat, goTypeName } from './go-format.js';

/** Sentinel errors upstream's handler turns into 400 BadRequest. */
export const badPatch = {
  primitiveList: (): PatchError => new PatchError('bad-request', 'invalid patch format of primitive list'),
  retainKeys: (): PatchError => new PatchError('bad-request', 'invalid patch format of retainKeys'),
  setElementOrder: (): PatchError =>
    new PatchError('bad-request', 'invalid patch format of setElementOrder list'),
  jsonDoc: (): PatchError => new PatchError('bad-request', 'invalid JSON document'),
  unsupported: (): PatchError =>
    new PatchError('bad-request', 'strategic merge patch format is not supported'),
} as const;

/** Upstream answers ErrNoListOfLists with 422. */
export function errNoListOfLists(): PatchError {
  return new PatchError('unprocessable', 'lists of lists are not supported');
}

/** Any other error: upstream passes it through unconverted (500, no reason, raw message). */
export function errOther(message: string): PatchError {
  return new PatchError('unknown', message);
}

export function errNoMergeKey(m: JsonValue, key: string): PatchError {
  return errOther(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

export const MAP_TYPE = 'map[string]interface {}';
export const SLICE_TYPE = '[]interface {}';

export function errBadArgType(expected: string, actual: JsonValue | undefined): PatchError {
  return errOther(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

export function errBadPatchType(directive: JsonValue, m: JsonValue): PatchError {
  return errOther(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(m)}`);
}
