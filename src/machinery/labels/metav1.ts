/**
 * A decoded metav1.LabelSelector (JSON) as the selector helpers take it, and upstream's
 * metav1.LabelSelectorAsSelector over it. Shared by every kind that carries a label selector.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import { labelSelectorFromMetav1 } from './selector.js';
import type { Metav1LabelSelector, Metav1LabelSelectorRequirement } from './selector.js';

/** A decoded `metav1.LabelSelector` object as the selector helpers take it. */
export function toMetav1Selector(sel: JsonObject | undefined): Metav1LabelSelector | undefined {
  if (sel === undefined) return undefined;
  const out: Metav1LabelSelector = {};
  const labels = sel['matchLabels'];
  if (isJsonObject(labels)) {
    const m: Record<string, string> = {};
    for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') m[k] = v;
    out.matchLabels = m;
  }
  const exprs = sel['matchExpressions'];
  if (Array.isArray(exprs)) {
    out.matchExpressions = exprs.filter(isJsonObject).map((e) => {
      const r: Metav1LabelSelectorRequirement = {
        key: typeof e['key'] === 'string' ? e['key'] : '',
        operator: typeof e['operator'] === 'string' ? e['operator'] : '',
      };
      const values = e['values'];
      if (Array.isArray(values)) r.values = values.filter((v): v is string => typeof v === 'string');
      return r;
    });
  }
  return out;
}

export type SelectorCheck =
  | { readonly ok: true; matches(labels: Record<string, string> | undefined): boolean; empty: boolean }
  | { readonly ok: false };

/** Upstream metav1.LabelSelectorAsSelector: a selector, or failure for a malformed one. */
export function asSelector(sel: JsonObject | undefined): SelectorCheck {
  try {
    const s = labelSelectorFromMetav1(toMetav1Selector(sel));
    return { ok: true, matches: (l) => s.matches(l), empty: s.empty() };
  } catch {
    return { ok: false };
  }
}
