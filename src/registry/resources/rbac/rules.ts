/**
 * How roles and cluster roles come back from storage upstream: `rules` has no omitempty and etcd
 * keeps objects as protobuf, where an empty list reads back as nil. So a role without rules (or
 * with `rules: []`) always shows `"rules": null`, e.g. an aggregated cluster role before the
 * aggregation controller fills it.
 */
import type { KubeObject } from '../../../machinery/object.js';

export function nilEmptyRules(role: KubeObject): void {
  const rules = role['rules'];
  if (Array.isArray(rules) && rules.length > 0) return;
  // Upstream prints the field right after metadata (struct order); keep that order here.
  const rest = Object.entries(role).filter(([k]) => k !== 'rules');
  for (const [k] of rest) delete role[k];
  for (const [k, v] of rest) {
    role[k] = v;
    if (k === 'metadata') role['rules'] = null;
  }
  if (!('rules' in role)) role['rules'] = null;
}
