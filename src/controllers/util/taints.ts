/** Taints and tolerations of core/v1 (Toleration.ToleratesTaint, GetMatchingTolerations) over JSON. */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { arr, obj, str } from './objects.js';

export function taintsOf(node: JsonObject): JsonObject[] {
  return arr(obj(node['spec'])['taints']).filter(isJsonObject);
}

export function tolerationsOf(pod: JsonObject): JsonObject[] {
  return arr(obj(pod['spec'])['tolerations']).filter(isJsonObject);
}

/** Same key and effect (taint.MatchTaint). */
export function sameTaint(a: JsonObject, b: JsonObject): boolean {
  return str(a['key']) === str(b['key']) && str(a['effect']) === str(b['effect']);
}

/** Toleration.ToleratesTaint. */
export function toleratesTaint(t: JsonObject, taint: JsonObject): boolean {
  const effect = str(t['effect']);
  if (effect !== '' && effect !== str(taint['effect'])) return false;
  const key = str(t['key']);
  if (key !== '' && key !== str(taint['key'])) return false;
  switch (str(t['operator'])) {
    case '':
    case 'Equal':
      return str(t['value']) === str(taint['value']);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** v1helper.GetMatchingTolerations: whether every taint is tolerated, and the tolerations used. */
export function matchingTolerations(
  taints: readonly JsonObject[],
  tolerations: readonly JsonObject[],
): { readonly all: boolean; readonly used: JsonObject[] } {
  if (taints.length === 0) return { all: true, used: [] };
  if (tolerations.length === 0) return { all: false, used: [] };
  const used: JsonObject[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (t === undefined) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}
