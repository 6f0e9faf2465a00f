/** Every networking.k8s.io resource this server serves: v1 by default, v1alpha1 when enabled. */
import type { RegistryResource } from '../../resource.js';
import { clusterCIDRs } from './clustercidrs.js';
import { ingressClasses } from './ingressclasses.js';
import { ingresses } from './ingresses.js';
import { ipAddresses } from './ipaddresses.js';
import { networkPolicies } from './networkpolicies.js';

export const networkingV1Resources: readonly RegistryResource[] = [
  ingressClasses,
  ingresses,
  networkPolicies,
];

/**
 * networking.k8s.io/v1alpha1, served only with --runtime-config and each kind's feature gate
 * (ClusterCIDR: MultiCIDRRangeAllocator; IPAddress: MultiCIDRServiceAllocator).
 */
export const networkingV1alpha1Resources: readonly RegistryResource[] = [clusterCIDRs, ipAddresses];
