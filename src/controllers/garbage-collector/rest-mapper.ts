/**
 * What the garbage collector learns from discovery: every served group-version's resources with
 * their kinds (to map an ownerReference's apiVersion/kind to a path, as client-go's RESTMapper),
 * and the resources it monitors: each group's preferred version, top-level resources that
 * support delete, list and watch (upstream GetDeletableResources), minus the ignored ones.
 */
import type { RestClient } from '../../client/rest-client.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';

export interface ApiResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

/** `group/version` as an apiVersion (`v1` for the core group). */
export function apiVersionOf(r: { readonly group: string; readonly version: string }): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** The key of a monitored resource. */
export function resourceKey(r: Pick<ApiResource, 'group' | 'version' | 'resource'>): string {
  return `${apiVersionOf(r)}/${r.resource}`;
}

/** upstream's DefaultIgnoredResources: events are never owners worth watching. */
export const defaultIgnoredResources: readonly { readonly group: string; readonly resource: string }[] = [
  { group: '', resource: 'events' },
  { group: 'events.k8s.io', resource: 'events' },
];

export class RestMappingError extends Error {
  override readonly name = 'RestMappingError';
  constructor(apiVersion: string, kind: string) {
    super(`unable to get REST mapping for ${kind}.${apiVersion}`);
  }
}

export class RestMapper {
  readonly #byKind: Map<string, ApiResource>;

  constructor(resources: readonly ApiResource[]) {
    this.#byKind = new Map();
    for (const r of resources) {
      const key = `${apiVersionOf(r)}\n${r.kind}`;
      if (!this.#byKind.has(key)) this.#byKind.set(key, r);
    }
  }

  /** The resource of `kind` in exactly `apiVersion` (a RestMappingError when not served). */
  mapping(apiVersion: string, kind: string): ApiResource {
    const r = this.#byKind.get(`${apiVersion}\n${kind}`);
    if (r === undefined) throw new RestMappingError(apiVersion, kind);
    return r;
  }

  /** The path of one object (namespace ignored for cluster-scoped resources). */
  objectPath(apiVersion: string, kind: string, namespace: string, name: string): string {
    const r = this.mapping(apiVersion, kind);
    return `${collectionPathOf(r, r.namespaced ? namespace : '')}/${encodeURIComponent(name)}`;
  }
}

/** The collection path: all namespaces when `namespace` is ''. */
export function collectionPathOf(r: ApiResource, namespace: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced && namespace !== ''
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`
    : `${base}/${r.resource}`;
}

function resourcesOf(group: string, version: string, list: JsonValue | undefined): ApiResource[] {
  if (!Array.isArray(list)) return [];
  const out: ApiResource[] = [];
  for (const r of list) {
    if (!isJsonObject(r) || typeof r['name'] !== 'string' || r['name'].includes('/')) continue;
    if (typeof r['kind'] !== 'string') continue;
    const verbs = Array.isArray(r['verbs'])
      ? r['verbs'].filter((v): v is string => typeof v === 'string')
      : [];
    out.push({
      group,
      version,
      resource: r['name'],
      kind: r['kind'],
      namespaced: r['namespaced'] === true,
      verbs,
    });
  }
  return out;
}

export interface Discovery {
  /** Every served group-version's resources. */
  readonly all: readonly ApiResource[];
  /** The preferred version's resources of each group. */
  readonly preferred: readonly ApiResource[];
  /** Group-versions whose discovery failed (their monitors are kept as they are). */
  readonly failed: ReadonlySet<string>;
}

/** Legacy discovery: /api/v1, /apis and every group-version. Throws when /api or /apis fails. */
export async function discover(client: Pick<RestClient, 'request'>, signal: AbortSignal): Promise<Discovery> {
  const all: ApiResource[] = [];
  const preferred: ApiResource[] = [];
  const failed = new Set<string>();
  const core = await client.request('GET', '/api/v1', { signal });
  const coreResources = resourcesOf('', 'v1', core['resources']);
  all.push(...coreResources);
  preferred.push(...coreResources);
  const groups = (await client.request('GET', '/apis', { signal }))['groups'];
  const lookups: Promise<void>[] = [];
  for (const g of Array.isArray(groups) ? groups : []) {
    if (!isJsonObject(g) || typeof g['name'] !== 'string') continue;
    const name = g['name'];
    const pref = isJsonObject(g['preferredVersion']) ? g['preferredVersion']['version'] : undefined;
    for (const v of Array.isArray(g['versions']) ? g['versions'] : []) {
      if (!isJsonObject(v) || typeof v['version'] !== 'string') continue;
      const version = v['version'];
      lookups.push(
        client.request('GET', `/apis/${name}/${version}`, { signal }).then(
          (list) => {
            const rs = resourcesOf(name, version, list['resources']);
            all.push(...rs);
            if (version === pref) preferred.push(...rs);
          },
          () => {
            failed.add(`${name}/${version}`);
          },
        ),
      );
    }
  }
  await Promise.all(lookups);
  signal.throwIfAborted();
  return { all, preferred, failed };
}

/** The resources to monitor: preferred, deletable, listable, watchable, not ignored. */
export function deletableResources(
  d: Discovery,
  ignored: readonly { readonly group: string; readonly resource: string }[],
): ApiResource[] {
  const need = ['delete', 'list', 'watch'];
  return d.preferred.filter(
    (r) =>
      need.every((v) => r.verbs.includes(v)) &&
      !ignored.some((i) => i.group === r.group && i.resource === r.resource),
  );
}
