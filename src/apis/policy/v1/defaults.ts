/**
 * What upstream does to a policy/v1 PodDisruptionBudget on its way in. There are no v1 defaults;
 * the v1 → internal conversion (pkg/apis/policy/v1/conversion.go) removes the requirement on the
 * label v1beta1 used to encode "match none" / "match all" from a user's selector, unless the
 * selector is exactly the internal match-none selector.
 */
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { obj } from '../../core/v1/access.js';

/** Upstream policy.PDBV1beta1Label. */
export const pdbV1beta1Label = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

function isEmpty(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

/** Semantic equality with NonV1beta1MatchNoneSelector (nil and empty lists/maps compare equal). */
function isMatchNone(sel: JsonObject): boolean {
  if (!isEmpty(sel['matchLabels'])) return false;
  const exprs = sel['matchExpressions'];
  if (!Array.isArray(exprs) || exprs.length !== 1) return false;
  const e = exprs[0];
  return (
    isJsonObject(e) && e['key'] === pdbV1beta1Label && e['operator'] === 'Exists' && isEmpty(e['values'])
  );
}

export function convertPodDisruptionBudget(o: JsonObject): void {
  const sel = obj(obj(o, 'spec'), 'selector');
  if (sel === undefined || isMatchNone(sel)) return;
  const exprs = sel['matchExpressions'];
  if (!Array.isArray(exprs)) return;
  const kept = exprs.filter((e) => !(isJsonObject(e) && e['key'] === pdbV1beta1Label));
  if (kept.length === exprs.length) return;
  // An emptied list is omitted when the object is written (omitempty).
  if (kept.length === 0) delete sel['matchExpressions'];
  else sel['matchExpressions'] = kept;
}
