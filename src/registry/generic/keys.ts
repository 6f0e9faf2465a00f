/** Storage key layout: /registry/<group>/<resource>/<namespace>/<name> (no group segment for core). */
import type { ResourceInfo } from '../../apis/resource.js';

export function resourcePrefix(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return info.group === '' ? `/registry/${info.resource}/` : `/registry/${info.group}/${info.resource}/`;
}

export function collectionPrefix(info: ResourceInfo, namespace: string): string {
  const base = resourcePrefix(info);
  return info.namespaced && namespace !== '' ? `${base}${namespace}/` : base;
}

export function objectKey(info: ResourceInfo, namespace: string, name: string): string {
  return info.namespaced ? `${resourcePrefix(info)}${namespace}/${name}` : `${resourcePrefix(info)}${name}`;
}
