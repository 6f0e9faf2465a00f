/** Every networking.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { ingressClasses } from './ingressclasses.js';
import { ingresses } from './ingresses.js';
import { networkPolicies } from './networkpolicies.js';

export const networkingV1Resources: readonly RegistryResource[] = [
  ingressClasses,
  ingresses,
  networkPolicies,
];
