/**
 * networking.k8s.io/v1alpha1 resources as kube-apiserver v1.27 discovers them when the
 * group-version is enabled (--runtime-config) with their feature gates. Both kinds exist only at
 * v1alpha1 in v1.27, so that is also their storage version (v1.28 discovers them alike).
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

const base = { group: 'networking.k8s.io', version: 'v1alpha1', verbs: allVerbs, namespaced: false } as const;

/** KEP-2593, gate MultiCIDRRangeAllocator. */
export const clusterCIDRInfo: ResourceInfo = {
  ...base,
  kind: 'ClusterCIDR',
  resource: 'clustercidrs',
  singular: 'clustercidr',
  shortNames: ['cc'],
  definition: 'io.k8s.api.networking.v1alpha1.ClusterCIDR',
};

/** KEP-1880, gate MultiCIDRServiceAllocator: one object per allocated Service IP, named by it. */
export const ipAddressInfo: ResourceInfo = {
  ...base,
  kind: 'IPAddress',
  resource: 'ipaddresses',
  singular: 'ipaddress',
  shortNames: ['ip'],
  definition: 'io.k8s.api.networking.v1alpha1.IPAddress',
};

export const networkingV1alpha1ResourceInfos: readonly ResourceInfo[] = [clusterCIDRInfo, ipAddressInfo];
