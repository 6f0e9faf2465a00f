/**
 * Go `%#v` renderings of the internal networking structs immutability errors report (upstream's
 * field.Invalid dereferences a pointer and prints structs without String() this way).
 */
import { goQuote } from '../../../machinery/field/errors.js';
import type { JsonObject } from '../../../util/json.js';
import { str } from '../../core/v1/access.js';

/** `[]string{"a"}`, `[]string{}` for an empty list, `[]string(nil)` when absent. */
function goStrings(o: JsonObject, key: string): string {
  const v = o[key];
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((s) => goQuote(typeof s === 'string' ? s : '')).join(', ')}}`;
}

function goList(o: JsonObject, key: string, type: string, item: (o: JsonObject) => string): string {
  const v = o[key];
  if (!Array.isArray(v)) return `[]${type}(nil)`;
  const items = v.map((x) => item(x !== null && typeof x === 'object' && !Array.isArray(x) ? x : {}));
  return `[]${type}{${items.join(', ')}}`;
}

function goRequirement(r: JsonObject): string {
  return (
    `core.NodeSelectorRequirement{Key:${goQuote(str(r, 'key') ?? '')}, ` +
    `Operator:${goQuote(str(r, 'operator') ?? '')}, Values:${goStrings(r, 'values')}}`
  );
}

function goTerm(t: JsonObject): string {
  return (
    `core.NodeSelectorTerm{MatchExpressions:${goList(t, 'matchExpressions', 'core.NodeSelectorRequirement', goRequirement)}, ` +
    `MatchFields:${goList(t, 'matchFields', 'core.NodeSelectorRequirement', goRequirement)}}`
  );
}

/** A `*core.NodeSelector` as field errors print it: `"null"` (a nil pointer), or the struct. */
export function goNodeSelector(sel: JsonObject | undefined): string {
  if (sel === undefined) return '"null"';
  return `core.NodeSelector{NodeSelectorTerms:${goList(sel, 'nodeSelectorTerms', 'core.NodeSelectorTerm', goTerm)}}`;
}

/** A v1.27 `*networking.ParentReference` as field errors print it. */
export function goParentReference(ref: JsonObject | undefined): string {
  if (ref === undefined) return '"null"';
  const f = (k: string): string => goQuote(str(ref, k) ?? '');
  return (
    `networking.ParentReference{Group:${f('group')}, Resource:${f('resource')}, ` +
    `Namespace:${f('namespace')}, Name:${f('name')}, UID:${f('uid')}}`
  );
}

/** Go `%v` of a `[]core.NodeSelectorRequirement`: `[{key In [a b]} {k Exists []}]`. */
export function goRequirementsV(reqs: readonly JsonObject[]): string {
  const one = (r: JsonObject): string => {
    const values = Array.isArray(r['values']) ? r['values'].map(String).join(' ') : '';
    return `{${str(r, 'key') ?? ''} ${str(r, 'operator') ?? ''} [${values}]}`;
  };
  return `[${reqs.map(one).join(' ')}]`;
}
