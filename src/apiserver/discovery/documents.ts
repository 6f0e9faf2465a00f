/** Discovery documents (legacy /api, /apis, per group-version; aggregated v2beta1) from ResourceInfos. */
import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../../apis/resource.js';
import { compareStrings } from '../../machinery/fieldpath/value.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

/** kube-apiserver's group priority order (what /apis lists first). */
const groupOrder = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'resource.k8s.io',
];

/** Version priority: GA before beta before alpha, higher numbers first (upstream's version sort). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) return [-1, 0, 0];
    const stage = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stage, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [sa, ma, na] = parse(a);
  const [sb, mb, nb] = parse(b);
  return sb - sa || mb - ma || nb - na || compareStrings(a, b);
}

export interface GroupVersions {
  readonly group: string;
  /** Versions served, preferred first. */
  readonly versions: readonly string[];
}

export function groupsOf(resources: readonly ResourceInfo[]): GroupVersions[] {
  const byGroup = new Map<string, Set<string>>();
  for (const r of resources) {
    let s = byGroup.get(r.group);
    if (s === undefined) byGroup.set(r.group, (s = new Set()));
    s.add(r.version);
  }
  const rank = (g: string): number => {
    const i = groupOrder.indexOf(g);
    return i < 0 ? groupOrder.length : i;
  };
  return [...byGroup.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || compareStrings(a, b))
    .map(([group, versions]) => ({ group, versions: [...versions].sort(compareVersions) }));
}

export function storageVersionHash(r: ResourceInfo): string {
  const s = r.storageVersion ?? r;
  return createHash('sha256')
    .update(`${s.group}/${s.version}/${s.kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}

function gv(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

interface Subresource {
  readonly name: string;
  readonly kind: string;
  readonly group: string;
  readonly version: string;
  readonly verbs: readonly string[];
}

function subresourcesOf(r: ResourceInfo): Subresource[] {
  const out: Subresource[] = [];
  if (r.scale !== undefined) {
    out.push({
      name: 'scale',
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: ['get', 'patch', 'update'],
    });
  }
  if (r.statusSubresource === true) {
    out.push({ name: 'status', kind: r.kind, group: '', version: '', verbs: ['get', 'patch', 'update'] });
  }
  for (const s of r.extraSubresources ?? []) {
    out.push({
      name: s.name,
      kind: s.kind ?? r.kind,
      group: s.group ?? '',
      version: s.version ?? '',
      verbs: s.verbs,
    });
  }
  return out.sort((a, b) => compareStrings(a.name, b.name));
}

export function apiVersionsDocument(serverAddress: string): JsonObject {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(g: GroupVersions): JsonObject {
  const versions = g.versions.map((v) => ({ groupVersion: gv(g.group, v), version: v }));
  return { name: g.group, versions, preferredVersion: versions[0]! };
}

export function apiGroupListDocument(resources: readonly ResourceInfo[]): JsonObject {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groupsOf(resources)
      .filter((g) => g.group !== '')
      .map(apiGroup),
  };
}

export function apiGroupDocument(resources: readonly ResourceInfo[], group: string): JsonObject | undefined {
  const g = groupsOf(resources).find((x) => x.group === group);
  if (g === undefined || group === '') return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) };
}

export function apiResourceListDocument(
  resources: readonly ResourceInfo[],
  group: string,
  version: string,
): JsonObject | undefined {
  const mine = resources
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => compareStrings(a.resource, b.resource));
  if (mine.length === 0) return undefined;
  const list: JsonValue[] = [];
  for (const r of mine) {
    const entry: JsonObject = {
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs],
    };
    if (r.shortNames !== undefined && r.shortNames.length > 0) entry['shortNames'] = [...r.shortNames];
    if (r.categories !== undefined && r.categories.length > 0) entry['categories'] = [...r.categories];
    if (r.stored !== false) entry['storageVersionHash'] = storageVersionHash(r);
    list.push(entry);
    for (const s of subresourcesOf(r)) {
      const sub: JsonObject = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced };
      if (s.group !== '') sub['group'] = s.group;
      if (s.version !== '') sub['version'] = s.version;
      sub['kind'] = s.kind;
      sub['verbs'] = [...s.verbs];
      list.push(sub);
    }
  }
  const doc: JsonObject = { kind: 'APIResourceList' };
  if (group !== '') doc['apiVersion'] = 'v1';
  doc['groupVersion'] = gv(group, version);
  doc['resources'] = list;
  return doc;
}

function discoveryResource(r: ResourceInfo): JsonObject {
  const entry: JsonObject = {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: [...r.verbs],
  };
  if (r.shortNames !== undefined && r.shortNames.length > 0) entry['shortNames'] = [...r.shortNames];
  if (r.categories !== undefined && r.categories.length > 0) entry['categories'] = [...r.categories];
  const subs = subresourcesOf(r);
  if (subs.length > 0) {
    entry['subresources'] = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group, version: s.version, kind: s.kind },
      verbs: [...s.verbs],
    }));
  }
  return entry;
}

/** apidiscovery.k8s.io/v2beta1 APIGroupDiscoveryList for /api (legacy: true) or /apis. */
export function aggregatedDocument(resources: readonly ResourceInfo[], legacy: boolean): JsonObject {
  const items: JsonValue[] = [];
  for (const g of groupsOf(resources)) {
    if ((g.group === '') !== legacy) continue;
    const metadata: JsonObject =
      g.group === '' ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null };
    items.push({
      metadata,
      versions: g.versions.map((v) => ({
        version: v,
        resources: resources
          .filter((r) => r.group === g.group && r.version === v)
          .sort((a, b) => compareStrings(a.resource, b.resource))
          .map(discoveryResource),
      })),
    });
  }
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {}, items };
}
