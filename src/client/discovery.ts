/** Reads the served resources from legacy discovery (/api/v1 and every /apis group-version). */
import { isJsonObject } from '../util/json.js';
import type { JsonValue } from '../util/json.js';
import type { RestClient } from './rest-client.js';

export interface ServedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

function resourcesOf(group: string, version: string, list: JsonValue | undefined): ServedResource[] {
  if (!Array.isArray(list)) return [];
  const out: ServedResource[] = [];
  for (const r of list) {
    if (!isJsonObject(r) || typeof r['name'] !== 'string' || r['name'].includes('/')) continue;
    const verbs = Array.isArray(r['verbs'])
      ? r['verbs'].filter((v): v is string => typeof v === 'string')
      : [];
    out.push({ group, version, resource: r['name'], namespaced: r['namespaced'] === true, verbs });
  }
  return out;
}

export async function discoverResources(
  client: Pick<RestClient, 'request'>,
  signal?: AbortSignal,
): Promise<ServedResource[]> {
  const opts = signal !== undefined ? { signal } : {};
  const out = resourcesOf('', 'v1', (await client.request('GET', '/api/v1', opts))['resources']);
  const groups = (await client.request('GET', '/apis', opts))['groups'];
  if (Array.isArray(groups)) {
    for (const g of groups) {
      if (!isJsonObject(g) || typeof g['name'] !== 'string' || !isJsonObject(g['preferredVersion'])) continue;
      const gv = g['preferredVersion']['groupVersion'];
      const version = g['preferredVersion']['version'];
      if (typeof gv !== 'string' || typeof version !== 'string') continue;
      out.push(
        ...resourcesOf(g['name'], version, (await client.request('GET', `/apis/${gv}`, opts))['resources']),
      );
    }
  }
  return out;
}

export function collectionPath(r: ServedResource, namespace: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`
    : `${base}/${r.resource}`;
}
