/** Every coordination.k8s.io/v1 resource this server serves. */
import type { RegistryResource } from '../../resource.js';
import { leases } from './leases.js';

export const coordinationV1Resources: readonly RegistryResource[] = [leases];
