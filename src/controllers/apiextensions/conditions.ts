/** CRD status conditions as apiextensions-apiserver's helpers set them (SetCRDCondition). */
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export interface CrdCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

export const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export function nowRfc3339(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}

export function conditionsOf(crd: JsonObject): JsonObject[] {
  const status = crd['status'];
  const conditions = isJsonObject(status) ? status['conditions'] : undefined;
  return Array.isArray(conditions) ? conditions.filter(isJsonObject) : [];
}

export function findCondition(crd: JsonObject, type: string): JsonObject | undefined {
  return conditionsOf(crd).find((c) => c['type'] === type);
}

export function conditionTrue(crd: JsonObject, type: string): boolean {
  return findCondition(crd, type)?.['status'] === 'True';
}

/** IsCRDConditionEquivalent: same type, status, reason and message. */
export function equivalent(a: CrdCondition, b: JsonObject | undefined): boolean {
  return (
    b !== undefined &&
    b['type'] === a.type &&
    b['status'] === a.status &&
    (b['reason'] ?? '') === (a.reason ?? '') &&
    (b['message'] ?? '') === (a.message ?? '')
  );
}

/**
 * SetCRDCondition on a copy's status: the transition time moves only when the status changes;
 * reason and message are replaced.
 */
export function setCondition(crd: JsonObject, c: CrdCondition, now: Date): void {
  const status: JsonObject = isJsonObject(crd['status']) ? crd['status'] : {};
  crd['status'] = status;
  const conditions = conditionsOf(crd);
  const existing = conditions.find((x) => x['type'] === c.type);
  const next: JsonObject = {
    type: c.type,
    status: c.status,
    lastTransitionTime:
      existing !== undefined &&
      existing['status'] === c.status &&
      typeof existing['lastTransitionTime'] === 'string'
        ? existing['lastTransitionTime']
        : nowRfc3339(now),
    ...(c.reason !== undefined && c.reason !== '' ? { reason: c.reason } : {}),
    ...(c.message !== undefined && c.message !== '' ? { message: c.message } : {}),
  };
  if (existing === undefined) conditions.push(next);
  else conditions[conditions.indexOf(existing)] = next;
  status['conditions'] = conditions;
}
