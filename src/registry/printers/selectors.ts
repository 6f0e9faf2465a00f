/**
 * Label map and label selector text as the printers show them
 * (labels.FormatLabels, metav1.LabelSelectorAsSelector(...).String(), metav1.FormatLabelSelector).
 */
import { isJsonObject } from '../../util/json.js';
import { arrayAt, compareStrings, stringAt, stringMapAt } from './read.js';

/** `k=v,k2=v2` sorted, or "<none>" for an empty or absent map. */
export function formatLabels(map: unknown): string {
  const pairs = [...stringMapAt({ m: map }, 'm')].map(([k, v]) => `${k}=${v}`);
  pairs.sort(compareStrings);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

interface Requirement {
  readonly key: string;
  readonly text: string;
}

function requirementFromExpression(expr: unknown): Requirement | undefined {
  const key = stringAt(expr, 'key');
  const operator = stringAt(expr, 'operator');
  const values = arrayAt(expr, 'values').filter((v): v is string => typeof v === 'string');
  switch (operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0) return undefined;
      const sorted = [...values].sort(compareStrings);
      const op = operator === 'In' ? 'in' : 'notin';
      return { key, text: `${key} ${op} (${sorted.join(',')})` };
    }
    case 'Exists':
      return values.length === 0 ? { key, text: key } : undefined;
    case 'DoesNotExist':
      return values.length === 0 ? { key, text: `!${key}` } : undefined;
    default:
      return undefined;
  }
}

/**
 * The selector's string form: requirements sorted by key, matchLabels as `k=v`, expressions as
 * `k in (a,b)`, `k notin (a)`, `k`, `!k`. "" for an absent or empty selector; undefined when the
 * selector cannot be converted (unknown operator, wrong number of values).
 */
export function labelSelectorString(selector: unknown): string | undefined {
  if (!isJsonObject(selector)) return '';
  const reqs: Requirement[] = [];
  for (const [k, v] of stringMapAt(selector, 'matchLabels')) reqs.push({ key: k, text: `${k}=${v}` });
  for (const expr of arrayAt(selector, 'matchExpressions')) {
    const r = requirementFromExpression(expr);
    if (r === undefined) return undefined;
    reqs.push(r);
  }
  // Array.prototype.sort is stable, so equal keys keep matchLabels-then-expressions order.
  reqs.sort((a, b) => compareStrings(a.key, b.key));
  return reqs.map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when empty, "<error>" when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const s = labelSelectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}
