/**
 * The ResourceQuota plugin's configuration (`ResourceQuotaConfiguration` of
 * apiserver.config.k8s.io/v1, or the older `Configuration` of resourcequota.admission.k8s.io/
 * v1beta1 and v1alpha1): `limitedResources`, kinds whose usage must be covered by a quota — a
 * usage name containing one of `matchContains`, or an object matching `matchScopes` — or the write
 * is refused.
 */
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import type { ScopeRequirement } from '../../apis/core/v1/quota/scopes.js';

export interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeRequirement[];
}

const accepted: Readonly<Record<string, string>> = {
  'apiserver.config.k8s.io/v1': 'ResourceQuotaConfiguration',
  'resourcequota.admission.k8s.io/v1beta1': 'Configuration',
  'resourcequota.admission.k8s.io/v1alpha1': 'Configuration',
};

/** A JSON string, or '' for anything else. */
function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function strings(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** Decodes the configuration; throws an Error with the reason for a malformed one. */
export function decodeResourceQuotaConfig(config: JsonValue | undefined): LimitedResource[] {
  if (config === undefined || config === null) return [];
  if (!isJsonObject(config)) throw new Error('ResourceQuota configuration must be an object');
  const apiVersion = typeof config['apiVersion'] === 'string' ? config['apiVersion'] : '';
  const kind = typeof config['kind'] === 'string' ? config['kind'] : '';
  if (accepted[apiVersion] !== kind) {
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "resourcequota"`);
  }
  const out: LimitedResource[] = [];
  const list = config['limitedResources'];
  if (list !== undefined && !Array.isArray(list)) throw new Error('limitedResources must be a list');
  for (const [i, item] of (list ?? []).entries()) {
    if (!isJsonObject(item)) throw new Error(`limitedResources[${i}] must be an object`);
    const resource = typeof item['resource'] === 'string' ? item['resource'] : '';
    if (resource === '') throw new Error(`limitedResources[${i}].resource: Required value`);
    const scopes = Array.isArray(item['matchScopes']) ? item['matchScopes'] : [];
    out.push({
      apiGroup: typeof item['apiGroup'] === 'string' ? item['apiGroup'] : '',
      resource,
      matchContains: strings(item['matchContains']),
      matchScopes: scopes.filter(isJsonObject).map((s) => ({
        scopeName: str(s['scopeName']),
        operator: str(s['operator']),
        values: strings(s['values']),
      })),
    });
  }
  return out;
}
