/**
 * Storage keys as kube-apiserver v1.27 lays them out in etcd, so that etcd tools (and the other
 * server) find objects where they expect them: /registry/<path>/<namespace>/<name>, where <path>
 * is the resource's name for the groups of kube-apiserver's own scheme (`deployments`, not
 * `apps/deployments`), with a few historical names (`services/specs`, `minions`...), and
 * <group>/<resource> for CustomResourceDefinitions, APIServices and custom resources (the
 * apiextensions and aggregator servers' SimpleRestOptionsFactory).
 */
import type { ResourceInfo } from '../../apis/resource.js';
import { isLegacySchemeGroup } from '../../machinery/scheme/kinds.js';

/** kube-apiserver's etcd prefixes that are not the resource's name (its REST storages' ResourcePrefix). */
const specialEtcdPaths: Readonly<Record<string, string>> = {
  '/replicationcontrollers': 'controllers',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/services': 'services/specs',
  'networking.k8s.io/ingresses': 'ingress',
};

/** The resource's path under /registry: `pods`, `deployments`, `services/specs`, `example.com/widgets`. */
export function etcdResourcePath(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return isLegacySchemeGroup(info.group)
    ? (specialEtcdPaths[`${info.group}/${info.resource}`] ?? info.resource)
    : `${info.group}/${info.resource}`;
}

export function resourcePrefix(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return `/registry/${etcdResourcePath(info)}/`;
}

/**
 * Where nanokube kept a resource before it took kube-apiserver's layout: /registry/<resource>/
 * for the core group, /registry/<group>/<resource>/ for every other. A data dir written then is
 * moved to the new layout when a server first opens it.
 */
export function firstLayoutPrefix(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return info.group === '' ? `/registry/${info.resource}/` : `/registry/${info.group}/${info.resource}/`;
}

type KeyInfo = Pick<ResourceInfo, 'group' | 'resource' | 'namespaced'>;

export function collectionPrefix(info: KeyInfo, namespace: string): string {
  const base = resourcePrefix(info);
  return info.namespaced && namespace !== '' ? `${base}${namespace}/` : base;
}

export function objectKey(info: KeyInfo, namespace: string, name: string): string {
  return info.namespaced ? `${resourcePrefix(info)}${namespace}/${name}` : `${resourcePrefix(info)}${name}`;
}
